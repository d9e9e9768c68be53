import {
  KeySweeper,
  PostgresIdempotencyStore,
  PostgresKeyWatcher,
  RunOnce,
  SqlIdempotencyStore,
} from "~/packages/run-once";
import type { RunOnceObserver, RunOnceSettings } from "~/packages/run-once";
import type { Db, Tx } from "./db/client";
import { databaseProvider } from "./db/database-url";
import { logger } from "./logger";
import { trpcFinalErrors } from "./trpc/run-once/final-errors";

/**
 * The run-once core on the app's database: the store and the way to wait that
 * suit the provider (PostgreSQL pushes settled keys, SQLite is polled), the
 * tRPC integration's final errors, and the sweeper of the same store.
 */
export function createRunOnce(opts: {
  databaseUrl: string;
  db: Db;
  settings: Partial<RunOnceSettings>;
  observer: RunOnceObserver;
  clock?: () => Date;
}): { runOnce: RunOnce<Tx>; sweeper: KeySweeper } {
  const postgres = databaseProvider(opts.databaseUrl) === "postgresql";
  const store = postgres ? new PostgresIdempotencyStore<Tx>(opts.db) : new SqlIdempotencyStore<Tx>(opts.db);
  const watcher =
    store instanceof PostgresIdempotencyStore
      ? new PostgresKeyWatcher(opts.databaseUrl, store, logger)
      : undefined;
  const runOnce = new RunOnce<Tx>({
    store,
    watcher,
    finalErrors: trpcFinalErrors,
    settings: opts.settings,
    observer: opts.observer,
    logger,
    clock: opts.clock,
  });
  const sweeper = new KeySweeper(store, {
    abandonedGraceMs: runOnce.settings.abandonedGraceMs,
    logger,
    clock: opts.clock,
  });
  return { runOnce, sweeper };
}
