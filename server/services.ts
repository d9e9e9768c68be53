import type { KeySweeper } from "run-once/sql";
import type { RunOnce, RunOnceSettings } from "run-once";
import type { Tx } from "./db/client";
import { createDb } from "./db/client";
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { labServices } from "./compose-lab";
import { env, labEnabled } from "./env";
import { logger } from "service-kit/logger";
import { AppMetrics } from "./observability/app-metrics";
import { instanceName } from "./observability/instance-name";
import { RunOnceLog } from "./observability/run-once-log";
import { HttpPaymentProvider } from "./payment-provider/http-payment-provider";
import type { PaymentProvider } from "./payment-provider/payment-provider";
import { PaymentCompleter } from "./payments/payment-completer";
import { createRunOnce } from "./keys/create-run-once";
import { loadServerSecret, secretLoader } from "./server-secret";
import { MutationThrottle } from "./throttle/mutation-throttle";
import type { ThrottleSettings } from "./throttle/mutation-throttle";
import { trpcFinalErrors } from "./trpc/idempotency/final-errors";
import { CatchUp } from "./webhooks/catch-up";
import type { HttpServices, LabComposition } from "./services-types";

export interface AppServices extends HttpServices {
  sweeper: KeySweeper;
  completer: PaymentCompleter;
  /** The provider's webhook: its signing secret and the run-once core its event keys are kept by; null when not configured. */
  /** `refuses`: the lab's shop-down switch, an endpoint down for an order's events. */
  webhooks: { secret: string; runOnce: RunOnce<Tx>; refuses(orderId: string): Promise<boolean> } | null;
  /** The catch-up road: the provider's events the webhook may have missed; with the webhook only. */
  catchUp: CatchUp | null;
  /** Stops the background jobs, writes the pending account of runs, and closes the database and Redis connections. */
  close(): Promise<void>;
}

/** Wires the database, the payment provider and the run-once core for one database URL. */
export function createServices(opts: {
  databaseUrl: string;
  settings: Partial<RunOnceSettings>;
  provider: { url: string; apiKey: string };
  /** Another provider implementation, for tests. */
  providerOverride?: PaymentProvider;
  clock?: () => Date;
  lab?: LabComposition;
  redriveCutoffMs?: number;
  /** The completer's give-up: failures before an attempt goes to review. */
  completerMaxFailures?: number;
  fingerprintSecret?: string;
  sessionSecret?: string;
  throttle?: ThrottleSettings;
  instance?: string;
  /** The provider's webhook endpoint secret, and how long event keys are kept; without it, webhooks are refused. */
  webhooks?: { secret: string; keyTtlMs: number };
}): AppServices {
  const metrics = new AppMetrics();
  const throttle = opts.throttle ? new MutationThrottle(opts.throttle) : null;
  const db = createDb(opts.databaseUrl, { onQuery: metrics.countQuery, onBegin: metrics.countBegin });
  const shopRunOnce = createRunOnce({
    databaseUrl: opts.databaseUrl,
    db,
    finalErrors: trpcFinalErrors,
    instance: opts.instance ?? instanceName(undefined),
    // The lab ages keys in the table, so every duplicate reads the table rather than this process's memory.
    settings: { ...opts.settings, ...(opts.lab ? { recentOutcomesMs: 0 } : {}) },
    observers: [new RunOnceLog(logger), metrics],
    onStatement: metrics.countQuery,
    webhookKeyTtlMs: opts.webhooks?.keyTtlMs ?? env.WEBHOOK_KEY_TTL_MS,
    clock: opts.clock,
  });
  const { runOnce, webhookRunOnce, sweeper, account } = shopRunOnce;
  const http = new HttpPaymentProvider(opts.provider);
  const inner = opts.providerOverride ?? http;
  const provider = opts.lab
    ? opts.lab.provider({ db, provider: inner, endpoint: opts.provider, beforeStall: () => account.flush() })
    : inner;
  const redriveCutoffMs = opts.redriveCutoffMs ?? env.PAYMENT_REDRIVE_CUTOFF_MS;
  const completer = new PaymentCompleter({
    db,
    account,
    provider,
    runOnce,
    metrics,
    logger,
    backoffMs: runOnce.settings.leaseMs,
    maxFailures: opts.completerMaxFailures,
    redriveCutoffMs,
    clock: opts.clock,
  });
  const catchUp = opts.webhooks
    ? new CatchUp({
        services: { db, provider, runOnce, metrics, account },
        eventRunOnce: webhookRunOnce,
        undeliveredEvents: (created) => http.undeliveredEvents(created),
        lookBackMs: env.WEBHOOK_CATCH_UP_LOOKBACK_MS,
        logger,
        clock: opts.clock,
      })
    : null;
  return {
    db,
    provider,
    runOnce,
    account,
    fingerprintSecret: secretLoader(() => loadServerSecret(db, "fingerprint", opts.fingerprintSecret)),
    metrics,
    throttle,
    redriveCutoffMs,
    sessionSecret: secretLoader(() => loadServerSecret(db, "session", opts.sessionSecret)),
    sweeper,
    completer,
    webhooks: opts.webhooks
      ? {
          secret: opts.webhooks.secret,
          runOnce: webhookRunOnce,
          refuses: async (orderId) => (await opts.lab?.shopDown(db, orderId)) ?? false,
        }
      : null,
    catchUp,
    async close() {
      sweeper.stop();
      await completer.stop();
      await catchUp?.stop();
      throttle?.close();
      await shopRunOnce.close();
      await db.$disconnect();
    },
  };
}

// On globalThis for dev reloads; made in the API route's graph, never in instrumentation.ts.
const globalForServices = globalThis as unknown as { services?: AppServices };

export function getServices(): AppServices {
  if (!globalForServices.services) {
    const services = createServices({
      databaseUrl: resolveDatabaseUrl(env.DATABASE_URL),
      settings: {
        leaseMs: env.IDEMPOTENCY_LEASE_MS,
        ttlMs: env.IDEMPOTENCY_TTL_MS,
        waitMs: env.IDEMPOTENCY_WAIT_MS,
      },
      provider: { url: env.PAYMENT_PROVIDER_URL, apiKey: env.PAYMENT_PROVIDER_KEY },
      lab: labEnabled() ? labServices : undefined,
      fingerprintSecret: env.IDEMPOTENCY_FINGERPRINT_SECRET,
      instance: instanceName(env.PORT),
      sessionSecret: env.SESSION_SECRET,
      webhooks: env.WEBHOOK_SECRET
        ? { secret: env.WEBHOOK_SECRET, keyTtlMs: env.WEBHOOK_KEY_TTL_MS }
        : undefined,
      throttle: {
        perSession: env.RATE_LIMIT_SESSION_MUTATIONS,
        perAddress: env.RATE_LIMIT_ADDRESS_MUTATIONS,
        windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
        redis: env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX } : undefined,
      },
    });
    // The background jobs live as long as the services they belong to: the process.
    services.sweeper.start(env.IDEMPOTENCY_SWEEP_INTERVAL_MS);
    services.completer.start(env.PAYMENT_COMPLETER_INTERVAL_MS);
    services.catchUp?.start(env.WEBHOOK_CATCH_UP_INTERVAL_MS);
    globalForServices.services = services;
  }
  return globalForServices.services;
}
