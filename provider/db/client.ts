import { openDatabase } from "service-kit/db/open-database";
import { PrismaClient as PostgresqlClient } from "./generated/postgresql/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import type { Prisma } from "./generated/sqlite/client";

/** The provider's database client, written against the SQLite client's type, as the shop's is. */
export type ProviderDb = SqliteClient;
export type ProviderTx = Prisma.TransactionClient;

/** Opens the provider's database: a file: URL is SQLite, a postgresql:// URL PostgreSQL. `onQuery` hears of every statement, `onBegin` of every transaction. */
export function createProviderDb(url: string, opts: { onQuery?: () => void; onBegin?: () => void } = {}) {
  return openDatabase<ProviderDb>(url, { sqlite: SqliteClient, postgresql: PostgresqlClient }, opts);
}
