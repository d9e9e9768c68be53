import { AttemptRecorder, KeySweeper, SqlAttemptJournal } from "run-once/sql";
import { RunOnce } from "run-once";
import type { RunOnceObserver, RunOnceSettings } from "run-once";
import type { Db, Tx } from "./db/client";
import { runOnceStoreFor } from "service-kit/db/run-once-store";
import { logger } from "service-kit/logger";
import { trpcFinalErrors } from "./trpc/run-once/final-errors";

/**
 * The run-once core on the app's database, with the tRPC integration's final
 * errors, the server's account of attempts beside its keys, and the sweeper
 * of both.
 */
export function createRunOnce(opts: {
  databaseUrl: string;
  db: Db;
  settings: Partial<RunOnceSettings>;
  observer: RunOnceObserver;
  clock?: () => Date;
}): { runOnce: RunOnce<Tx>; sweeper: KeySweeper; journal: SqlAttemptJournal<Tx>; recorder: AttemptRecorder } {
  const { store, watcher } = runOnceStoreFor<Tx>(opts.databaseUrl, opts.db, logger);
  const runOnce = new RunOnce<Tx>({
    store,
    watcher,
    finalErrors: trpcFinalErrors,
    settings: opts.settings,
    observer: opts.observer,
    logger,
    clock: opts.clock,
  });
  const journal = new SqlAttemptJournal<Tx>(opts.db);
  const recorder = new AttemptRecorder(journal, logger);
  const sweeper = new KeySweeper(store, {
    abandonedGraceMs: runOnce.settings.abandonedGraceMs,
    attempts: journal,
    logger,
    clock: opts.clock,
  });
  return { runOnce, sweeper, journal, recorder };
}
