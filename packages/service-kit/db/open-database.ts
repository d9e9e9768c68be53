import { databaseProvider } from "./database-url";
import { postgresAdapter } from "./postgres-adapter";
import { sqliteAdapter } from "./sqlite-adapter";

type Adapter = ReturnType<typeof postgresAdapter> | ReturnType<typeof sqliteAdapter>;
type QueryLog = Array<{ emit: "event"; level: "query" }>;
type ClientClass<Db> = new (options: { adapter: Adapter; log: QueryLog }) => Db;

/**
 * Opens a service's database with the client Prisma generated for the URL's
 * provider (a file: URL is SQLite, a postgresql:// URL PostgreSQL). Each
 * service keeps to what both clients have in common, so both are typed as its
 * SQLite client. `onQuery` hears of every statement.
 */
export function openDatabase<Db>(
  url: string,
  clients: { sqlite: ClientClass<Db>; postgresql: ClientClass<unknown> },
  opts: { onQuery?: () => void } = {},
): Db {
  const log: QueryLog = opts.onQuery ? [{ emit: "event", level: "query" }] : [];
  const db =
    databaseProvider(url) === "postgresql"
      ? (new clients.postgresql({ adapter: postgresAdapter(url), log }) as Db)
      : new clients.sqlite({ adapter: sqliteAdapter(url), log });
  // The clients' types were made without log options, so they do not know the "query" event.
  if (opts.onQuery)
    (db as unknown as { $on(event: "query", listener: () => void): void }).$on("query", opts.onQuery);
  return db;
}
