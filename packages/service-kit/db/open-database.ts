import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { logger as serviceLogger } from "../logger";
import { databaseProvider } from "./database-url";
import { postgresAdapter } from "./postgres-adapter";
import { SqliteAdapterFactory } from "./sqlite-adapter";

type Adapter = ReturnType<typeof postgresAdapter> | SqliteAdapterFactory;
type QueryLog = Array<{ emit: "event"; level: "query" }>;
type ClientOptions = { adapter: Adapter; log: QueryLog; queryPlanCacheMaxSize: number };
type ClientClass<Db> = new (options: ClientOptions) => Db;

/** Prisma's plan cache per client: a cached plan skips the WASM query compiler, half a query's CPU. */
const QUERY_PLAN_CACHE_SIZE = 1_000;

/** Opens a service's database with the client generated for the URL's provider, typed as the SQLite one. */
export function openDatabase<Db>(
  url: string,
  clients: { sqlite: ClientClass<Db>; postgresql: ClientClass<unknown> },
  opts: {
    onQuery?: () => void;
    onBegin?: () => void;
    logger?: { warn(details: object, message: string): void };
  } = {},
): Db {
  const log: QueryLog = opts.onQuery ? [{ emit: "event", level: "query" }] : [];
  const options = { log, queryPlanCacheMaxSize: QUERY_PLAN_CACHE_SIZE };
  const told = <F extends Adapter>(factory: F) =>
    opts.onBegin ? tellingBegins(factory, opts.onBegin) : factory;
  const db =
    databaseProvider(url) === "postgresql"
      ? (new clients.postgresql({
          adapter: told(postgresAdapter(url, opts.logger ?? serviceLogger)),
          ...options,
        }) as Db)
      : new clients.sqlite({ adapter: told(new SqliteAdapterFactory(url)), ...options });
  // The clients' types were made without log options, so they do not know the "query" event.
  if (opts.onQuery)
    (db as unknown as { $on(event: "query", listener: () => void): void }).$on("query", opts.onQuery);
  return db;
}

/** The factory, with its adapters telling `onBegin` of each transaction they start (its BEGIN is one more round trip). */
function tellingBegins<F extends SqlDriverAdapterFactory>(factory: F, onBegin: () => void): F {
  const bound = (target: object, name: string | symbol) => {
    const value: unknown = Reflect.get(target, name, target);
    return typeof value === "function" ? value.bind(target) : value;
  };
  return new Proxy(factory, {
    get: (target, name) =>
      name !== "connect"
        ? bound(target, name)
        : async () =>
            new Proxy(await target.connect(), {
              get: (adapter, method) =>
                method !== "startTransaction"
                  ? bound(adapter, method)
                  : (...args: Parameters<typeof adapter.startTransaction>) => {
                      onBegin();
                      return adapter.startTransaction(...args);
                    },
            }),
  });
}
