import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { KeySweeper } from "run-once/sql";
import { RunOnce } from "run-once";
import type { RunOnceSettings } from "run-once";
import { runOnceStoreFor } from "service-kit/db/run-once-store";
import { logger } from "service-kit/logger";
import { createProviderApp } from "./app";
import { createProviderDb } from "./db/client";
import type { ProviderTx } from "./db/client";
import { providerFinalErrors } from "./errors";
import { ProviderMetrics } from "./metrics";
import { WebhookDeliverer } from "./webhooks/deliverer";
import type { WebhookEndpoint } from "./webhooks/deliverer";

/** How often the deliverer looks for events due: a webhook follows its payment within about this. */
const WEBHOOK_TICK_MS = 250;

export interface RunningProvider {
  url: string;
  port: number;
  metrics: ProviderMetrics;
  close(): Promise<void>;
}

/**
 * Serves the payment provider on a port (0: any free one) over a database
 * that is already migrated: the shop's idempotency core, its own store, its
 * own sweeper. `npm start` runs it as a process of its own (provider/main.ts);
 * tests run it in theirs.
 */
export async function startProvider(opts: {
  databaseUrl: string;
  port: number;
  lab: boolean;
  timeoutHoldMs: number;
  settings?: Partial<RunOnceSettings>;
  /** The merchant's webhook endpoint: without one, no events are written. */
  webhooks?: WebhookEndpoint;
}): Promise<RunningProvider> {
  const metrics = new ProviderMetrics();
  const db = createProviderDb(opts.databaseUrl, { onQuery: metrics.countQuery });
  const { store, watcher, close: closeStore } = runOnceStoreFor<ProviderTx>(opts.databaseUrl, db, logger);
  const runOnce = new RunOnce<ProviderTx>({
    store,
    watcher,
    finalErrors: providerFinalErrors,
    settings: opts.settings,
    observer: metrics,
    logger,
  });
  const sweeper = new KeySweeper(store, { abandonedGraceMs: runOnce.settings.abandonedGraceMs, logger });
  sweeper.start(60_000);
  const app = createProviderApp({
    db,
    runOnce,
    metrics,
    lab: opts.lab,
    timeoutHoldMs: opts.timeoutHoldMs,
    webhooks: opts.webhooks !== undefined,
  });
  const deliverer = opts.webhooks && new WebhookDeliverer({ db, endpoint: opts.webhooks, logger });
  deliverer?.start(WEBHOOK_TICK_MS);

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch: app.fetch, port: opts.port, hostname: "127.0.0.1" }, () =>
      resolve(listening),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    metrics,
    async close() {
      sweeper.stop();
      await deliverer?.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeStore();
      await db.$disconnect();
    },
  };
}
