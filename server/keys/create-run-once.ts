import { RunOnce } from "run-once";
import type { FinalErrors, RunOnceObserver, RunOnceSettings } from "run-once";
import { KeySweeper } from "run-once/sql";
import type { Db, Tx } from "../db/client";
import { runOnceStoreFor } from "service-kit/db/run-once-store";
import { logger } from "service-kit/logger";
import { Account } from "../account/accounted-run";
import { PrismaRequestJournal } from "../account/request-journal";

/** The run-once core on the shop's database, with the transport's final errors and the account of its runs. */
export function createRunOnce(opts: {
  databaseUrl: string;
  db: Db;
  /** Which errors are answers, stored and replayed: the transport's (server/trpc/idempotency/final-errors.ts). */
  finalErrors: FinalErrors;
  /** This process's name in the account (see instanceName). */
  instance: string;
  settings: Partial<RunOnceSettings>;
  /** How long a webhook event's key is kept: past the provider's retry window (env.ts checks). */
  webhookKeyTtlMs: number;
  /** Told how every request ended (logs, metrics). */
  observers: RunOnceObserver[];
  /** Hears each statement the store sends around Prisma (PostgreSQL's owner sessions). */
  onStatement?: () => void;
  clock?: () => Date;
}) {
  const { store, watcher, close } = runOnceStoreFor<Tx>(opts.databaseUrl, opts.db, logger, opts.onStatement);
  const shared = { store, watcher, finalErrors: opts.finalErrors, logger, clock: opts.clock };
  const runOnce = new RunOnce<Tx>({
    ...shared,
    settings: opts.settings,
    observer: { observe: (event) => opts.observers.forEach((observer) => observer.observe(event)) },
  });
  // The same store and final errors; only the keys' retention differs.
  const webhookRunOnce = new RunOnce<Tx>({
    ...shared,
    settings: { ...opts.settings, ttlMs: opts.webhookKeyTtlMs },
  });
  const journal = new PrismaRequestJournal(opts.db);
  const account = new Account(journal, { ...opts, logger });
  const sweepKeysAndTheirAttempts = async (expiredBefore: Date, abandonedBefore: Date) => {
    const deleted = await store.sweep(expiredBefore, abandonedBefore);
    await journal.sweep(abandonedBefore);
    return deleted;
  };
  const sweeper = new KeySweeper(
    { sweep: sweepKeysAndTheirAttempts },
    { abandonedGraceMs: runOnce.settings.abandonedGraceMs, logger, clock: opts.clock },
  );
  return {
    runOnce,
    webhookRunOnce,
    sweeper,
    account,
    /** Writes what is pending, then closes the connections the store and its watcher hold of their own. */
    async close() {
      await account.flush();
      await close();
    },
  };
}
