import { openDatabase } from "service-kit/db/open-database";
import { PrismaClient as PostgresqlClient } from "./generated/postgresql/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import type { Prisma } from "./generated/sqlite/client";

/** The application uses what both generated clients share, so it is typed as the SQLite one. */
export type Db = SqliteClient;
export type Tx = Prisma.TransactionClient;

/** Opens the database a URL names (file: SQLite, postgresql://); `onQuery` hears every statement, `onBegin` every transaction. */
export function createDb(url: string, opts: { onQuery?: () => void; onBegin?: () => void } = {}): Db {
  return openDatabase<Db>(url, { sqlite: SqliteClient, postgresql: PostgresqlClient }, opts);
}
