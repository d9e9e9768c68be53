/**
 * The systems the peers bench compares, behind one call: the project's
 * run-once engine on its PostgreSQL store, and two public Node.js
 * idempotency libraries on the local Redis, each with its README's defaults.
 * Every system guards the same side effect: one ledger row, written in an
 * interactive transaction on the same PostgreSQL database, through Prisma or
 * through node-postgres (PgDatabase), the one given to the system.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { CachePersistenceLayer } from "@aws-lambda-powertools/idempotency/cache";
import { Idempotency, IdempotencyError } from "@node-idempotency/core";
import { RedisStorageAdapter } from "@node-idempotency/storage-adapter-redis";
import { createClient } from "@redis/client";
import { RunOnce, fingerprint } from "run-once";
import type { SqlClient, SqlDatabase } from "run-once/sql";
import { createDb } from "../server/db/client";
import type { Db } from "../server/db/client";
import { runOnceStoreFor } from "service-kit/db/run-once-store";
import { ROOT } from "../testing/paths";

export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const LEDGER = "PeerLedger";
const CENTS = 1200;

/** What a handler does: `ok` writes the row; `throw` fails before writing; `hang` writes inside its transaction and never ends. */
export type Behaviour = "ok" | "throw" | "hang";

/** How a call ended, in words a table can count: a decision, or the error's name or code. */
export interface Answer {
  ok: boolean;
  status: string;
}

export interface System {
  id: "engine" | "engine-single-transaction" | "powertools" | "node-idempotency";
  label: string;
  call(key: string, behaviour: Behaviour, onExecuting?: () => void): Promise<Answer>;
  /** Closes its connections; the peers first delete the Redis records the run made (their TTLs are 1 h and 24 h). */
  close(): Promise<void>;
}

const QUIET = { warn: () => undefined, error: () => undefined };
const NO_FINAL_ERRORS = { isFinal: () => false, encode: () => null, decode: () => new Error("never stored") };

export class HandlerFailed extends Error {
  override name = "HandlerFailed";
}

/** The database a system's side effect is written to, through either driver. */
export type SideEffectDb = SqlDatabase<SqlClient>;

/** Into LEDGER, written out: a tagged template's values are parameters, never names. */
const insertRow = (tx: SqlClient, key: string) =>
  tx.$executeRaw`INSERT INTO "PeerLedger" ("id", "key", "cents") VALUES (${randomUUID()}, ${key}, ${CENTS})`;

/** The side effect's body, inside a transaction; `hang` never resolves (for the SIGKILL case). */
async function sideEffect(tx: SqlClient, key: string, behaviour: Behaviour, onExecuting?: () => void) {
  await insertRow(tx, key);
  if (behaviour === "hang") {
    onExecuting?.();
    await new Promise(() => undefined);
  }
}

export async function createLedger(db: Db): Promise<void> {
  await db.$executeRawUnsafe(
    `CREATE TABLE IF NOT EXISTS "${LEDGER}" ("id" TEXT PRIMARY KEY, "key" TEXT NOT NULL, "cents" INTEGER NOT NULL)`,
  );
  await db.$executeRawUnsafe(`CREATE INDEX IF NOT EXISTS "${LEDGER}_key" ON "${LEDGER}" ("key")`);
}

export async function executions(db: Db, key: string): Promise<number> {
  const rows = await db.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM "${LEDGER}" WHERE "key" = $1`,
    key,
  );
  return Number(rows[0]?.n ?? 0);
}

/** The side effect without idempotency: the baseline every ratio divides by. */
export function baseline(db: SideEffectDb): (key: string) => Promise<unknown> {
  return (key) => db.$transaction(async (tx) => insertRow(tx, key));
}

/** The installed version (not every package exports its package.json). */
const versionOf = (name: string): string =>
  (
    JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;

const errorStatus = (error: unknown): string =>
  error instanceof IdempotencyError
    ? error.code
    : error instanceof Error
      ? error.name === "Error"
        ? error.constructor.name
        : error.name
      : String(error);

/**
 * The project's engine: the coordinator and its PostgreSQL store, as
 * bench/engine-overhead.ts sets them up, in one of its completion modes (the
 * default's two commits, or the claim inside the side effect's transaction).
 */
export function engineSystem(
  url: string,
  db: SideEffectDb,
  completion: "in-transaction" | "single-transaction" = "in-transaction",
): System {
  const { store, watcher } = runOnceStoreFor<SqlClient>(url, db, QUIET);
  const runOnce = new RunOnce<SqlClient>({ store, watcher, finalErrors: NO_FINAL_ERRORS, logger: QUIET });
  const single = completion === "single-transaction";
  return {
    id: single ? "engine-single-transaction" : "engine",
    label: single
      ? "run-once single-transaction (this project), PostgreSQL store"
      : "run-once (this project), PostgreSQL store",
    async call(key, behaviour, onExecuting) {
      try {
        const result = await runOnce.run(
          {
            scope: { caller: "bench", path: "ledger", key },
            fingerprint: fingerprint("ledger", CENTS),
            completion,
          },
          async ({ commit }) => {
            if (behaviour === "throw") throw new HandlerFailed("failed before commit");
            return commit((tx) => sideEffect(tx, key, behaviour, onExecuting));
          },
        );
        return {
          ok: result.outcome.ok,
          status: result.outcome.ok ? result.decision : `${result.decision} error`,
        };
      } catch (error) {
        return { ok: false, status: errorStatus(error) };
      }
    },
    close: () => runOnce.close(),
  };
}

/**
 * Powertools, as its README and CachePersistenceLayer's documentation give it:
 * a connected `@redis/client`, `makeIdempotent` on the function, default
 * config (the whole payload hashed into the key, 1 h expiry). Outside Lambda
 * there is no remaining-time context, so it warns on every call; the bench
 * drops that one warning.
 */
export async function powertoolsSystem(db: SideEffectDb): Promise<System> {
  const client = await createClient({ url: REDIS_URL }).connect();
  const persistenceStore = new CachePersistenceLayer({ client });
  const idempotent = makeIdempotent(
    async (
      event: { key: string; cents: number },
      behaviour: Behaviour,
      ran: { value: boolean },
      onExecuting?: () => void,
    ) => {
      ran.value = true;
      if (behaviour === "throw") throw new HandlerFailed("failed before commit");
      await db.$transaction((tx) => sideEffect(tx, event.key, behaviour, onExecuting));
      return { charged: event.cents };
    },
    { persistenceStore, config: new IdempotencyConfig({}) },
  );
  const keys = new Set<string>();
  return {
    id: "powertools",
    label: `@aws-lambda-powertools/idempotency ${versionOf("@aws-lambda-powertools/idempotency")}, CachePersistenceLayer on Redis`,
    async call(key, behaviour, onExecuting) {
      try {
        // The first argument is the payload hashed into the key (its default); the behaviour is not part of it.
        keys.add(key);
        // Only the first argument is hashed: `ran` tells an execution from a stored result's replay.
        const ran = { value: false };
        await idempotent({ key, cents: CENTS }, behaviour, ran, onExecuting);
        return { ok: true, status: ran.value ? "executed" : "replayed" };
      } catch (error) {
        return { ok: false, status: errorStatus(error) };
      }
    },
    close: async () => {
      for (const key of keys) await persistenceStore.deleteRecord({ key, cents: CENTS });
      client.destroy();
    },
  };
}

/**
 * node-idempotency, as its README gives it: `onRequest` before the business
 * logic (a cached response back for a seen key), `onResponse` after it with the
 * body or, on failure, the error. Default options: no waiting on a request in
 * progress (REQUEST_IN_PROGRESS), 24 h TTL.
 */
export async function nodeIdempotencySystem(db: SideEffectDb): Promise<System> {
  const storage = new RedisStorageAdapter({ url: REDIS_URL });
  await storage.connect();
  const idempotency = new Idempotency(storage);
  const keys = new Set<string>();
  return {
    id: "node-idempotency",
    label: `@node-idempotency/core ${versionOf("@node-idempotency/core")}, storage-adapter-redis ${versionOf("@node-idempotency/storage-adapter-redis")}`,
    async call(key, behaviour, onExecuting) {
      const request = {
        method: "POST",
        path: "/ledger",
        headers: { "idempotency-key": key },
        body: { cents: CENTS },
      };
      keys.add(key);
      try {
        const cached = await idempotency.onRequest(request);
        if (cached) return { ok: !cached.error, status: cached.error ? "replayed error" : "replayed" };
      } catch (error) {
        return { ok: false, status: errorStatus(error) };
      }
      try {
        if (behaviour === "throw") throw new HandlerFailed("failed before commit");
        await db.$transaction((tx) => sideEffect(tx, key, behaviour, onExecuting));
        await idempotency.onResponse(request, { body: { charged: CENTS }, additional: { status: 201 } });
        return { ok: true, status: "executed" };
      } catch (error) {
        await idempotency.onResponse(request, { error: errorStatus(error), additional: { status: 500 } });
        return { ok: false, status: errorStatus(error) };
      }
    },
    close: async () => {
      // The adapter has no delete: its records, by the core's key layout (prefix:method:path:key), on a client of our own.
      const client = await createClient({ url: REDIS_URL }).connect();
      const all = [...keys].map((key) => `node-idempotency:POST:/ledger:${key}`);
      for (let i = 0; i < all.length; i += 500) await client.del(all.slice(i, i + 500));
      client.destroy();
      await storage.disconnect();
    },
  };
}

/** Whether the local Redis answers a PING within a second. */
export async function redisReachable(): Promise<boolean> {
  const client = createClient({
    url: REDIS_URL,
    socket: { connectTimeout: 1_000, reconnectStrategy: false },
  });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    if (client.isOpen) client.destroy();
  }
}

export async function createSystem(id: System["id"], url: string, db: SideEffectDb): Promise<System> {
  if (id === "engine") return engineSystem(url, db);
  if (id === "engine-single-transaction") return engineSystem(url, db, "single-transaction");
  if (id === "powertools") return powertoolsSystem(db);
  return nodeIdempotencySystem(db);
}

export { createDb };
