import { RunOnce } from "run-once";
import { PostgresIdempotencyStore, PostgresKeyWatcher } from "run-once/sql";
import type { Db, Tx } from "../server/db/client";
import { runOnceStoreFor } from "service-kit/db/run-once-store";

const QUIET = { warn: () => undefined, error: () => undefined };
const NO_FINAL_ERRORS = { isFinal: () => false, encode: () => null, decode: () => new Error("never stored") };

/**
 * The engine on the shop's store for `url` (keys and side effect through the
 * one Prisma client, as the shop writes them), silent, with no final errors.
 * `close` ends the connections the PostgreSQL store and watcher hold of their own.
 */
export function benchEngine(url: string, db: Db): { runOnce: RunOnce<Tx>; close: () => Promise<void> } {
  const { store, watcher } = runOnceStoreFor<Tx>(url, db, QUIET);
  return {
    runOnce: new RunOnce<Tx>({ store, watcher, finalErrors: NO_FINAL_ERRORS, logger: QUIET }),
    async close() {
      if (watcher instanceof PostgresKeyWatcher) await watcher.close();
      if (store instanceof PostgresIdempotencyStore) await store.close();
    },
  };
}
