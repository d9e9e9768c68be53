import { databaseProvider } from "service-kit/db/database-url";
import { postgresAdapter } from "service-kit/db/postgres-adapter";
import { sqliteAdapter } from "service-kit/db/sqlite-adapter";
import { PrismaClient as PostgresqlClient } from "./generated/postgresql/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import type { Prisma } from "./generated/sqlite/client";

/** The provider's database client, written against the SQLite client's type, as the shop's is. */
export type ProviderDb = SqliteClient;
export type ProviderTx = Prisma.TransactionClient;

/** Opens the provider's database: a file: URL is SQLite, a postgresql:// URL PostgreSQL. `onQuery` hears of every statement. */
export function createProviderDb(url: string, opts: { onQuery?: () => void } = {}): ProviderDb {
  const log = opts.onQuery ? [{ emit: "event" as const, level: "query" as const }] : [];
  const db =
    databaseProvider(url) === "postgresql"
      ? (new PostgresqlClient({ adapter: postgresAdapter(url), log }) as unknown as ProviderDb)
      : new SqliteClient({ adapter: sqliteAdapter(url), log });
  // ProviderDb's type was made without log options, so it does not know the "query" event.
  if (opts.onQuery)
    (db as unknown as { $on(event: "query", listener: () => void): void }).$on("query", opts.onQuery);
  return db;
}
