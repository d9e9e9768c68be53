import { PrismaClient } from "./generated/sqlite/client";
import type { Prisma } from "./generated/sqlite/client";
import { SerializedSqliteAdapterFactory } from "./sqlite-adapter";

export type Db = PrismaClient;
/** The client handed to code that runs inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;

/** Opens the database a URL names: a file: URL is SQLite. */
export function createDb(url: string): Db {
  return new PrismaClient({ adapter: new SerializedSqliteAdapterFactory(url) });
}
