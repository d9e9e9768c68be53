import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunOnceSettings } from "run-once";
import Stripe from "stripe";
import { createProviderDb } from "../provider/db/client";
import { PROVIDER_DEFAULT_TIMEOUT_HOLD_MS } from "../provider/defaults";
import type { ProviderDb } from "../provider/db/client";
import { startProvider } from "../provider/server";
import type { RunningProvider } from "../provider/server";
import type { WebhookEndpoint } from "../provider/webhooks/deliverer";
import { createTestDatabase } from "./test-database";
import type { TestDatabase } from "./test-database";

/** The shop's account at a test provider. */
const TEST_PROVIDER_KEY = "sk_test_shop_under_test";

export interface TestProvider {
  url: string;
  apiKey: string;
  running: RunningProvider;
  database: TestDatabase;
  /** The provider's own database, to check what it charged. */
  db: ProviderDb;
  /** How many charges the provider really executed (its metric). */
  executions(): Promise<number>;
  /** Stripe's official client on this provider, as any integration drives it (the shop's key unless told). */
  stripe(apiKey?: string): Stripe;
  close(): Promise<void>;
}

/**
 * The payment provider, a real HTTP server on a free port with a fresh
 * database of its own, run inside the test's process (the cluster tests run it
 * as a process of its own), with its test lab on unless told.
 */
export async function startTestProvider(
  opts: {
    timeoutHoldMs?: number;
    lab?: boolean;
    settings?: Partial<RunOnceSettings>;
    webhooks?: WebhookEndpoint;
    eventRetentionMs?: number;
  } = {},
): Promise<TestProvider> {
  const database = await createTestDatabase("provider");
  const running = await startProvider({
    databaseUrl: database.url,
    port: 0,
    lab: opts.lab ?? true,
    timeoutHoldMs: opts.timeoutHoldMs ?? PROVIDER_DEFAULT_TIMEOUT_HOLD_MS,
    settings: opts.settings,
    webhooks: opts.webhooks,
    eventRetentionMs: opts.eventRetentionMs,
  });
  const db = createProviderDb(database.url);
  return {
    url: running.url,
    apiKey: TEST_PROVIDER_KEY,
    running,
    database,
    db,
    async executions() {
      const metric = await running.metrics.registry
        .getSingleMetric("provider_charge_executions_total")
        ?.get();
      return metric?.values[0]?.value ?? 0;
    },
    stripe(apiKey = TEST_PROVIDER_KEY) {
      const { hostname, port } = new URL(running.url);
      return new Stripe(apiKey, {
        host: hostname,
        port,
        protocol: "http",
        maxNetworkRetries: 0,
        telemetry: false,
      });
    },
    async close() {
      await running.close();
      await db.$disconnect();
      await database.drop();
    },
  };
}

/**
 * A merchant's webhook endpoint that answers every delivery 200 (events are
 * written where one listens), for `startTestProvider({ webhooks })`; closed by
 * the returned function.
 */
export async function acceptingEndpoint(): Promise<{ endpoint: WebhookEndpoint; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: {
      url: `http://127.0.0.1:${port}/hook`,
      secret: "whsec_accepting_endpoint_0001",
      retryWindowMs: 60_000,
      retryBaseMs: 100,
      duplicateRate: 0,
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
