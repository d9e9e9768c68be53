import { PostgresIdempotencyStore, PostgresKeyWatcher, SqlIdempotencyStore } from "run-once/sql";
import type { IdempotencyStore, KeyWatcher, Logger } from "run-once";
import type { SqlClient, SqlDatabase } from "run-once/sql";
import { databaseProvider } from "./database-url";

/**
 * The run-once core's store on a database, and the way to wait on it that
 * suits the provider: PostgreSQL pushes settled keys (LISTEN/NOTIFY), SQLite
 * is polled (the core's default watcher). Shared by the shop and the payment
 * provider, each on its own database.
 */
export function runOnceStoreFor<Tx extends SqlClient>(
  url: string,
  db: SqlDatabase<Tx>,
  logger: Pick<Logger, "warn">,
): { store: IdempotencyStore<Tx>; watcher: KeyWatcher | undefined } {
  if (databaseProvider(url) !== "postgresql")
    return { store: new SqlIdempotencyStore(db), watcher: undefined };
  const store = new PostgresIdempotencyStore(db, url, { logger });
  return { store, watcher: new PostgresKeyWatcher(url, store, logger) };
}
