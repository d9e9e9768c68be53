import type { IdempotencyStore, KeyWatcher } from "run-once/store";
import { PostgresIdempotencyStore, PostgresKeyWatcher, SqlIdempotencyStore } from "run-once/sql";
import type { SqlClient, SqlDatabase } from "run-once/sql";
import { databaseProvider } from "./database-url";

/** The core's store on a database and its watcher: PostgreSQL pushes settled keys (LISTEN/NOTIFY), SQLite is polled. `onStatement` hears the owners' sessions, which go around Prisma. */
export function runOnceStoreFor<Tx extends SqlClient>(
  url: string,
  db: SqlDatabase<Tx>,
  logger: { warn(details: object, message: string): void },
  onStatement?: () => void,
): { store: IdempotencyStore<Tx>; watcher: KeyWatcher | undefined; close(): Promise<void> } {
  if (databaseProvider(url) !== "postgresql")
    return { store: new SqlIdempotencyStore(db), watcher: undefined, close: () => Promise.resolve() };
  const store = new PostgresIdempotencyStore(db, url, { logger, onStatement });
  const watcher = new PostgresKeyWatcher(url, store, logger);
  return { store, watcher, close: async () => void (await Promise.all([watcher.close(), store.close()])) };
}
