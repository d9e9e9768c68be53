import type { Db } from "../db/client";
import { databaseProvider } from "../db/database-url";
import type { Logger } from "../logger";
import { PollingKeyWatcher } from "./key-watcher";
import type { KeyWatcher } from "./key-watcher";
import { PostgresKeyWatcher } from "./postgres-key-watcher";
import { PostgresIdempotencyStore } from "./postgres-store";
import { PrismaIdempotencyStore } from "./prisma-store";
import type { IdempotencyStore } from "./store";

/** The key store and the way to wait on it that suit the database: PostgreSQL pushes, SQLite is polled. */
export function idempotencyBackend(
  databaseUrl: string,
  db: Db,
  logger: Logger,
): { store: IdempotencyStore; watcher: KeyWatcher } {
  if (databaseProvider(databaseUrl) === "postgresql") {
    return { store: new PostgresIdempotencyStore(db), watcher: new PostgresKeyWatcher(databaseUrl, logger) };
  }
  return { store: new PrismaIdempotencyStore(db), watcher: new PollingKeyWatcher() };
}
