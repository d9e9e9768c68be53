import { allOf } from "~/packages/run-once";
import type { KeySweeper, RunOnceSettings } from "~/packages/run-once";
import { createDb } from "./db/client";
import { resolveDatabaseUrl } from "./db/database-url";
import { env, labEnabled } from "./env";
import { LabLedger } from "./lab/lab-ledger";
import type { Ledger } from "./ledger/ledger";
import { MockLedger } from "./ledger/mock-ledger";
import { logger } from "./logger";
import { AppMetrics } from "./observability/app-metrics";
import { RunOnceLog } from "./observability/run-once-log";
import { createRunOnce } from "./run-once";
import type { Services } from "./trpc/context";

export interface AppServices extends Services {
  sweeper: KeySweeper;
  /** Stops the sweeper, writes pending replay counts, and closes the database connections. */
  close(): Promise<void>;
}

/** Wires the database, the ledger and the run-once core for one database URL. */
export function createServices(opts: {
  databaseUrl: string;
  settings: Partial<RunOnceSettings>;
  ledger?: Ledger;
  clock?: () => Date;
  /** Puts the fault-injection lab's switches in front of the ledger. */
  lab?: boolean;
  fingerprintSecret?: string;
}): AppServices {
  const metrics = new AppMetrics();
  const db = createDb(opts.databaseUrl, { onQuery: metrics.countQuery });
  const { runOnce, sweeper } = createRunOnce({
    databaseUrl: opts.databaseUrl,
    db,
    settings: opts.settings,
    observer: allOf(new RunOnceLog(logger), metrics),
    clock: opts.clock,
  });
  const ledger = opts.ledger ?? new MockLedger();
  return {
    db,
    ledger: opts.lab ? new LabLedger(db, ledger) : ledger,
    idempotency: runOnce,
    fingerprintSecret: opts.fingerprintSecret,
    metrics,
    sweeper,
    async close() {
      sweeper.stop();
      await runOnce.close();
      await db.$disconnect();
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
      fingerprintSecret: env.IDEMPOTENCY_FINGERPRINT_SECRET,
    });
    // The sweeper lives as long as the services it belongs to: the process.
    services.sweeper.start(env.IDEMPOTENCY_SWEEP_INTERVAL_MS);
    globalForServices.services = services;
  }
  return globalForServices.services;
}
