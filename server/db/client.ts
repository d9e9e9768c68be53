import { databaseProvider } from "service-kit/db/database-url";
import { PrismaClient as PostgresqlClient } from "./generated/postgresql/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import type { Prisma } from "./generated/sqlite/client";
import { postgresAdapter } from "service-kit/db/postgres-adapter";
import { sqliteAdapter } from "service-kit/db/sqlite-adapter";

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
  const log = opts.onQuery ? [{ emit: "event" as const, level: "query" as const }] : [];
  const db =
    databaseProvider(url) === "postgresql"
      ? (new PostgresqlClient({ adapter: postgresAdapter(url), log }) as unknown as Db)
      : new SqliteClient({ adapter: sqliteAdapter(url), log });
  // Db's type was made without log options, so it does not know the "query" event.
  if (opts.onQuery)
    (db as unknown as { $on(event: "query", listener: () => void): void }).$on("query", opts.onQuery);
  return db;
}
