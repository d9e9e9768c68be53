import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { KeySweeper } from "run-once/sql";
import { RunOnce } from "run-once";
import type { RunOnceSettings } from "run-once";
import { runOnceStoreFor } from "service-kit/db/run-once-store";
import { logger } from "service-kit/logger";
import { createProviderApp } from "./app";
import { PeriodicJob } from "service-kit/periodic-job";
import { createProviderDb } from "./db/client";
import type { ProviderTx } from "./db/client";
import { EVENT_RETENTION_DEFAULT_MS } from "./defaults";
import { providerFinalErrors } from "./errors";
import { providerLab } from "./lab/provider-lab";
import { ProviderMetrics } from "./metrics";
import { testCardNetwork } from "./test-cards";
import { WebhookDeliverer } from "./webhooks/deliverer";
import type { WebhookEndpoint } from "./webhooks/deliverer";
import { sweepEvents } from "./webhooks/event-outbox";

/** How often the deliverer looks for events due: a webhook follows its payment within about this. */
const WEBHOOK_TICK_MS = 250;

/** Serves the payment provider on a port (0: any free one) over an already migrated database. */
export async function startProvider(opts: {
  databaseUrl: string;
  port: number;
  lab: boolean;
  timeoutHoldMs: number;
  settings?: Partial<RunOnceSettings>;
  /** The merchant's webhook endpoint: without one, no events are written. */
  webhooks?: WebhookEndpoint;
  eventRetentionMs?: number;
}) {
  const metrics = new ProviderMetrics();
  const db = createProviderDb(opts.databaseUrl, { onQuery: metrics.countQuery, onBegin: metrics.countBegin });
  const keys = runOnceStoreFor<ProviderTx>(opts.databaseUrl, db, logger, metrics.countQuery);
  const runOnce = new RunOnce<ProviderTx>({
    store: keys.store,
    watcher: keys.watcher,
    finalErrors: providerFinalErrors,
    settings: opts.settings,
    observer: metrics,
    logger,
  });
  const sweeper = new KeySweeper(keys.store, { abandonedGraceMs: runOnce.settings.abandonedGraceMs, logger });
  sweeper.start(60_000);
  const retentionMs = opts.eventRetentionMs ?? EVENT_RETENTION_DEFAULT_MS;
  const eventSweeper = new PeriodicJob(
    () => sweepEvents(db, new Date(Date.now() - retentionMs)),
    (error) => logger.warn({ err: error }, "events: a sweep failed; the next one retries"),
  );
  eventSweeper.start(Math.min(60_000, retentionMs));
  // The lab, where it is on, is composed around the provider here: its routes, and what it bends.
  const lab = opts.lab ? providerLab(db, opts.timeoutHoldMs) : null;
  const app = createProviderApp({
    db,
    runOnce,
    metrics,
    cardNetwork: lab ? lab.cardNetwork(testCardNetwork) : testCardNetwork,
    lab,
    webhooks: opts.webhooks !== undefined,
  });
  const deliverer =
    opts.webhooks &&
    new WebhookDeliverer({ db, endpoint: opts.webhooks, logger, sendsAgain: lab?.sendsAgain });
  deliverer?.start(WEBHOOK_TICK_MS);

  const server = serve({ fetch: app.fetch, port: opts.port, hostname: "127.0.0.1" });
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    metrics,
    async close() {
      sweeper.stop();
      await eventSweeper.stop();
      await deliverer?.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await keys.close();
      await db.$disconnect();
    },
  };
}

export type RunningProvider = Awaited<ReturnType<typeof startProvider>>;
