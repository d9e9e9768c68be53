import type { RunOnceSettings } from "run-once";
import { seedCatalog } from "../server/catalog/seed-catalog";
import { HttpPaymentProvider } from "../server/payment-provider/http-payment-provider";
import { labServices } from "../server/compose-lab";
import { createServices } from "../server/services";
import type { AppServices } from "../server/services";
import { newSessionId } from "../server/session";
import { createContextInner } from "../server/trpc/context";
import { createCaller } from "../server/trpc/routers/_app";
import type { ControllableProvider } from "./controllable-provider";
import { createTestDatabase } from "./test-database";
import type { TestDatabase } from "./test-database";
import { startTestProvider } from "./test-provider";
import type { TestProvider } from "./test-provider";

export interface TestApp {
  services: AppServices;
  database: TestDatabase;
  /** The payment provider it charges through. */
  paymentProvider: TestProvider;
  /** A caller for one session (a new one unless given), as a browser tab would be. */
  caller(sessionId?: string, opts?: { signal?: AbortSignal }): ReturnType<typeof createCaller>;
  close(): Promise<void>;
}

/**
 * The application on a fresh database of the project's engine, called
 * in-process through tRPC's createCaller, charging through a real payment
 * provider (its own server and database). Pass `database` and
 * `paymentProvider` of another app to make a second instance of it.
 */
export async function createTestApp(
  opts: {
    settings?: Partial<RunOnceSettings>;
    /** Hooks around the provider client. */
    provider?: ControllableProvider;
    clock?: () => Date;
    database?: TestDatabase;
    paymentProvider?: TestProvider;
    lab?: boolean;
    fingerprintSecret?: string;
    redriveCutoffMs?: number;
    completerMaxFailures?: number;
    /** The provider's webhook signing secret: the app then takes webhooks. */
    webhookSecret?: string;
  } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await createTestDatabase());
  const paymentProvider = opts.paymentProvider ?? (await startTestProvider());
  const endpoint = { url: paymentProvider.url, apiKey: paymentProvider.apiKey };
  const services = createServices({
    databaseUrl: database.url,
    settings: opts.settings ?? {},
    provider: endpoint,
    providerOverride: opts.provider?.wrap(new HttpPaymentProvider(endpoint)),
    clock: opts.clock,
    lab: opts.lab ? labServices : undefined,
    fingerprintSecret: opts.fingerprintSecret,
    redriveCutoffMs: opts.redriveCutoffMs,
    completerMaxFailures: opts.completerMaxFailures,
    webhooks: opts.webhookSecret
      ? { secret: opts.webhookSecret, keyTtlMs: 7 * 24 * 60 * 60 * 1000 }
      : undefined,
  });
  await seedCatalog(services.db);
  return {
    services,
    database,
    paymentProvider,
    caller: (sessionId = newSessionId(), callerOpts) =>
      createCaller(createContextInner({ services, sessionId }), callerOpts),
    async close() {
      await services.close();
      if (!opts.paymentProvider) await paymentProvider.close();
      if (!opts.database) await database.drop();
    },
  };
}
