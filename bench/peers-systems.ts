/** The peers report's systems, each set up as its README gives it, guarding one ledger row. */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { CachePersistenceLayer } from "@aws-lambda-powertools/idempotency/cache";
import { Idempotency, IdempotencyError } from "@node-idempotency/core";
import { RedisStorageAdapter } from "@node-idempotency/storage-adapter-redis";
import { createClient } from "@redis/client";
import { RunOnce, fingerprint } from "run-once";
import { runOnceStoreFor } from "service-kit/db/run-once-store";
import type { Db, Tx } from "../server/db/client";
import { ROOT } from "../testing/paths";

export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const CENTS = 1200;
/** The in-progress expiry Powertools is given through a Lambda-like context: run-once's default lease. */
const POWERTOOLS_REMAINING_MS = 10_000;

/** What the side effect does: `ok` writes the row; `throw` fails before writing; `hang` writes inside its transaction and never ends. */
export type Behaviour = "ok" | "throw" | "hang";

/** How a call ended, in words a table can count: a decision, or the error's name or code. */
export interface Answer {
  ok: boolean;
  status: string;
}

export const SYSTEM_IDS = ["run-once", "powertools", "powertools-context", "node-idempotency"] as const;
export type SystemId = (typeof SYSTEM_IDS)[number];

export interface System {
  id: SystemId;
  label: string;
  call(key: string, behaviour: Behaviour, onExecuting?: () => void): Promise<Answer>;
  /** Closes its connections; the peers first delete the Redis records they made. */
  close(): Promise<void>;
}

class HandlerFailed extends Error {
  override name = "HandlerFailed";
}

const insertRow = (tx: Tx, key: string) =>
  tx.$executeRaw`INSERT INTO "PeerLedger" ("id", "key", "cents") VALUES (${randomUUID()}, ${key}, ${CENTS})`;

/** The side effect's body, inside a transaction; `hang` never resolves (the crash case kills it there). */
async function sideEffect(tx: Tx, key: string, behaviour: Behaviour, onExecuting?: () => void) {
  await insertRow(tx, key);
  if (behaviour === "hang") {
    onExecuting?.();
    await new Promise(() => undefined);
  }
}

export async function createLedger(db: Db): Promise<void> {
  await db.$executeRawUnsafe(
    `CREATE TABLE IF NOT EXISTS "PeerLedger" ("id" TEXT PRIMARY KEY, "key" TEXT NOT NULL, "cents" INTEGER NOT NULL)`,
  );
  await db.$executeRawUnsafe(`CREATE INDEX IF NOT EXISTS "PeerLedger_key" ON "PeerLedger" ("key")`);
}

export async function executions(db: Db, key: string): Promise<number> {
  const rows = await db.$queryRaw<
    Array<{ n: bigint }>
  >`SELECT count(*) AS n FROM "PeerLedger" WHERE "key" = ${key}`;
  return Number(rows[0]?.n ?? 0);
}

/** The side effect without idempotency: what every latency is compared with. */
export const bare = (db: Db) => (key: string) => db.$transaction((tx) => insertRow(tx, key));

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

const QUIET = { info: () => undefined, warn: () => undefined, error: () => undefined };
const NO_FINAL_ERRORS = { isFinal: () => false, encode: () => null, decode: () => new Error("never stored") };

/** The run-once core on the shop's PostgreSQL store, as the shop sets it up, with its default settings. */
function runOnceSystem(url: string, db: Db): System {
  const { store, watcher, close } = runOnceStoreFor<Tx>(url, db, QUIET);
  const runOnce = new RunOnce<Tx>({ store, watcher, finalErrors: NO_FINAL_ERRORS, logger: QUIET });
  return {
    id: "run-once",
    label: "run-once (this project), PostgreSQL store",
    async call(key, behaviour, onExecuting) {
      try {
        const result = await runOnce.run(
          { scope: { caller: "bench", path: "ledger", key }, fingerprint: fingerprint("ledger", CENTS) },
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
    close,
  };
}

/** Powertools' defaults; `withContext` gives it a Lambda context whose remaining time is run-once's lease. */
async function powertoolsSystem(db: Db, withContext: boolean): Promise<System> {
  const client = await createClient({ url: REDIS_URL }).connect();
  const persistenceStore = new CachePersistenceLayer({ client });
  const config = new IdempotencyConfig({});
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
    { persistenceStore, config },
  );
  const keys = new Set<string>();
  const version = versionOf("@aws-lambda-powertools/idempotency");
  return {
    id: withContext ? "powertools-context" : "powertools",
    label: withContext
      ? `@aws-lambda-powertools/idempotency ${version}, Redis, with a Lambda-like context (${POWERTOOLS_REMAINING_MS / 1000} s remaining)`
      : `@aws-lambda-powertools/idempotency ${version}, CachePersistenceLayer on Redis`,
    async call(key, behaviour, onExecuting) {
      keys.add(key);
      if (withContext)
        config.registerLambdaContext({ getRemainingTimeInMillis: () => POWERTOOLS_REMAINING_MS } as never);
      // Only the first argument is hashed into the key: `ran` tells an execution from a replay.
      const ran = { value: false };
      try {
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

/** node-idempotency's defaults: a request in progress is refused, records kept 24 h. */
async function nodeIdempotencySystem(db: Db): Promise<System> {
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
        const stored = await idempotency.onRequest(request);
        if (stored) return { ok: !stored.error, status: stored.error ? "replayed error" : "replayed" };
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
      // The adapter has no delete: its records by the core's key layout (prefix:method:path:key).
      const client = await createClient({ url: REDIS_URL }).connect();
      const all = [...keys].map((key) => `node-idempotency:POST:/ledger:${key}`);
      for (let i = 0; i < all.length; i += 500) await client.del(all.slice(i, i + 500));
      client.destroy();
      await storage.disconnect();
    },
  };
}

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

/** Powertools warns on every call made outside Lambda (no remaining time known): that one line is dropped. */
let powertoolsQuieted = false;
function quietPowertools(): void {
  if (powertoolsQuieted) return;
  powertoolsQuieted = true;
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes("remaining time")) warn(...args);
  };
}

export async function createSystem(id: SystemId, url: string, db: Db): Promise<System> {
  if (id === "run-once") return runOnceSystem(url, db);
  if (id === "node-idempotency") return nodeIdempotencySystem(db);
  quietPowertools();
  return powertoolsSystem(db, id === "powertools-context");
}
