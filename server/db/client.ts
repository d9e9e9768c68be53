import { openDatabase } from "service-kit/db/open-database";
import { PrismaClient as PostgresqlClient } from "./generated/postgresql/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import type { Prisma } from "./generated/sqlite/client";

/**
 * The database client. Prisma generates one client per provider from the one
 * data model; the application uses only what both have in common, so it is
 * written against the SQLite client's type and the PostgreSQL client stands in
 * for it.
 */
export type Db = SqliteClient;
/** The client handed to code that runs inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;

/**
 * Opens the database a URL names: a file: URL is SQLite, a postgresql:// URL
 * PostgreSQL. `onQuery` hears of every statement (for the metrics).
 */
export function createDb(url: string, opts: { onQuery?: () => void } = {}): Db {
  return openDatabase<Db>(url, { sqlite: SqliteClient, postgresql: PostgresqlClient }, opts);
}
