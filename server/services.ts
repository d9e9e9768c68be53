import { createDb } from "./db/client";
import { resolveDatabaseUrl } from "./db/database-url";
import { env, labEnabled } from "./env";
import { RunOnceCoordinator } from "./idempotency/coordinator";
import type { RunOnceSettings } from "./idempotency/settings";
import { idempotencyBackend } from "./idempotency/backend";
import { KeySweeper } from "./idempotency/sweeper";
import { LabLedger } from "./lab/lab-ledger";
import { MockLedger } from "./ledger/mock-ledger";
import type { Ledger } from "./ledger/ledger";
import { logger } from "./logger";
import { allOf } from "./observability/run-once-events";
import { RunOnceLog } from "./observability/run-once-log";
import { AppMetrics } from "./observability/app-metrics";
import { loadSessionSecret, sessionSecretLoader } from "./session-secret";
import { MutationThrottle } from "./throttle/mutation-throttle";
import type { ThrottleSettings } from "./throttle/mutation-throttle";
import type { HttpServices } from "./trpc/http-handler";

export interface AppServices extends HttpServices {
  sweeper: KeySweeper;
  /** Stops the sweeper and closes the database connections. */
  close(): Promise<void>;
}

/** Wires the database, the ledger and the run-once machinery for one database URL. */
export function createServices(opts: {
  databaseUrl: string;
  settings: RunOnceSettings;
  ledger?: Ledger;
  clock?: () => Date;
  /** Puts the fault-injection lab in front of the ledger and opens its procedures. */
  lab?: boolean;
  benchBaseline?: boolean;
  /** SESSION_SECRET; without it, the key kept in the database. */
  sessionSecret?: string;
  /** Limits on mutations over HTTP; without them, none. */
  throttle?: ThrottleSettings;
}): AppServices {
  const metrics = new AppMetrics();
  const db = createDb(opts.databaseUrl, { onQuery: metrics.countQuery });
  const { store, watcher } = idempotencyBackend(opts.databaseUrl, db, logger);
  const observer = allOf(new RunOnceLog(logger), metrics);
  const idempotency = new RunOnceCoordinator(
    { db, store, watcher, logger, observer, clock: opts.clock },
    opts.settings,
  );
  const ledger = opts.ledger ?? new MockLedger();
  const sweeper = new KeySweeper(store, logger, opts.clock);
  return {
    db,
    ledger: opts.lab ? new LabLedger(db, ledger) : ledger,
    idempotency,
    labEnabled: opts.lab ?? false,
    benchBaseline: opts.benchBaseline ?? false,
    metrics,
    throttle: opts.throttle ? new MutationThrottle(db, opts.throttle) : null,
    sessionSecret: sessionSecretLoader(() => loadSessionSecret(db, opts.sessionSecret)),
    sweeper,
    async close() {
      sweeper.stop();
      await idempotency.flushReplayCounts();
      await Promise.all([watcher.close(), db.$disconnect()]);
    },
  };
}

// One set per server process, kept on globalThis so that dev-mode module
// reloads reuse the connection and the in-flight map instead of forking them.
// They are made on the first API request, in the API route's module graph:
// made in instrumentation.ts instead, they would throw errors of another copy
// of TRPCError (Next bundles each entry apart), which tRPC turns into 500s.
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
      lab: labEnabled(),
      benchBaseline: env.BENCH_BASELINE === "1",
      sessionSecret: env.SESSION_SECRET,
      throttle: {
        perSession: env.RATE_LIMIT_SESSION_MUTATIONS,
        perAddress: env.RATE_LIMIT_ADDRESS_MUTATIONS,
        windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
      },
    });
    // The sweeper lives as long as the services it belongs to: the process.
    services.sweeper.start(env.IDEMPOTENCY_SWEEP_INTERVAL_MS);
    globalForServices.services = services;
  }
  return globalForServices.services;
}
