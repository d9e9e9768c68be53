import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { RunOnce, fingerprint } from "run-once";
import type { FinalErrors, RunOnceSettings, RunResult } from "run-once";
import { KeySweeper, PostgresIdempotencyStore, PostgresKeyWatcher, SqlIdempotencyStore } from "run-once/sql";
import type { SqlClient } from "run-once/sql";
import type { IdempotencyStore } from "run-once/store";
import { POSTGRES, createTestDatabase } from "./test-database";
import type { TestDatabase } from "./test-database";

/**
 * The run-once core alone, on a real database and with no framework: one
 * operation ("probe") whose behaviour the test sets, counted. Its input is a
 * value; its behaviour runs before the transaction (the slow, outside part,
 * like a card authorization), and its answer is committed.
 */
export interface ProbeInput {
  value: number;
  nested?: { a?: number; b?: string };
}

/** A final answer that is not a success, like a declined card: stored and replayed. */
export class Declined extends Error {
  readonly reason = "DECLINED";
}

/**
 * What the probe does once it runs, before its transaction. An error thrown
 * here is a refusal or a crash, decided before any write; the answer is
 * committed: a value, or a Declined, stored like a success.
 */
export type ProbeBehaviour = (input: ProbeInput, execution: number) => Promise<ProbeAnswer>;
export type ProbeAnswer = { value: number } | { declined: string };

export const testFinalErrors: FinalErrors = {
  isFinal: (error) => error instanceof Declined,
  encode: (error) => ({ message: (error as Error).message }),
  decode: (stored) => new Declined((stored as { message: string }).message),
};

/**
 * Counts every call of every store method. Once `dead`, the owner's heartbeat
 * writes nothing, as a dead process's would not.
 */
export function countingStore<Tx>(store: IdempotencyStore<Tx>, dead: () => boolean = () => false) {
  const calls: Record<string, number> = {};
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (property === "renew" && dead()) return Promise.resolve(true);
        calls[String(property)] = (calls[String(property)] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: counted, calls };
}

/**
 * Real time plus jumps: time flows (waits and timeouts still end), and a test
 * can leap past a lease or a retention period at once.
 */
export class FakeClock {
  #offsetMs = 0;
  now = () => new Date(Date.now() + this.#offsetMs);
  advance(ms: number) {
    this.#offsetMs += ms;
  }
}

const QUIET = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The caller most probe calls use. */
export const CALLER = `session-${randomUUID()}`;

export async function createRunOnceHarness(
  opts: { settings?: Partial<RunOnceSettings>; database?: TestDatabase; clock?: FakeClock } = {},
) {
  const database = opts.database ?? (await createTestDatabase());
  // The probe's side effect: a row per execution, written in the transaction that completes its key.
  if (!opts.database)
    await database.exec(`CREATE TABLE "ProbeLedger" ("key" TEXT NOT NULL, "execution" INTEGER NOT NULL)`);
  // Another harness on the same database is another process: a connection of its own.
  const { db } = opts.database ? opts.database.connect() : database;
  const postgres = POSTGRES;
  const sessionName = `run-once owner ${randomUUID()}`;
  const store = postgres
    ? new PostgresIdempotencyStore(db, database.url, { logger: QUIET, sessionName })
    : new SqlIdempotencyStore(db);
  let dead = false;
  const counted = countingStore(store, () => dead);
  const watcher =
    store instanceof PostgresIdempotencyStore
      ? new PostgresKeyWatcher(database.url, store, QUIET)
      : undefined;
  const runOnce = new RunOnce<SqlClient>({
    store: counted.store,
    watcher,
    finalErrors: testFinalErrors,
    settings: opts.settings,
    clock: opts.clock?.now,
  });

  let executions = 0;
  let behaviour: ProbeBehaviour = async (input) => ({ value: input.value });

  /** Runs the probe under `key`; resolves with the whole result (decision, outcome). */
  const run = (
    input: ProbeInput & { key: string },
    call: { caller?: string; path?: string; signal?: AbortSignal } = {},
  ): Promise<RunResult> => {
    const { key, ...payload } = input;
    const path = call.path ?? "probe";
    return runOnce.run(
      {
        scope: { caller: call.caller ?? CALLER, path, key },
        fingerprint: fingerprint(path, payload),
        signal: call.signal,
      },
      async ({ commit }) => {
        const execution = ++executions;
        const answer = await behaviour(payload, execution);
        return commit(async (tx) => {
          if ("declined" in answer) throw new Declined(answer.declined);
          await tx.$executeRaw`INSERT INTO "ProbeLedger" ("key", "execution") VALUES (${key}, ${execution})`;
          return { execution, value: answer.value };
        });
      },
    );
  };

  return {
    database,
    db,
    /** The key table's rows, as stored ("state" is the column's IN_PROGRESS or COMPLETED), by key. */
    keys: () =>
      db.$queryRaw<
        Array<{
          key: string;
          scope: string;
          path: string;
          state: string;
          token: string;
          outcome: string | null;
        }>
      >`
        SELECT "key", "scope", "path", "state", "token", "outcome" FROM "IdempotencyKey" ORDER BY "key"`,
    /** The probe's side effects, every process's: one row per committed execution. */
    ledger: () =>
      db.$queryRaw<Array<{ key: string; execution: unknown }>>`SELECT "key", "execution" FROM "ProbeLedger"`,
    runOnce,
    /** The store without the counting, for tests that wrap it. */
    runOnceStore: store,
    calls: counted.calls,
    sweeper: new KeySweeper(counted.store, {
      abandonedGraceMs: runOnce.settings.abandonedGraceMs,
      logger: QUIET,
      clock: opts.clock?.now,
    }),
    get executions() {
      return executions;
    },
    behave(next: ProbeBehaviour) {
      behaviour = next;
    },
    /**
     * This process dies as far as the database can tell, though its
     * executions stay suspended where they are: its heartbeats stop, and on
     * PostgreSQL the sessions holding its owners' locks are closed by the server.
     */
    async die() {
      dead = true;
      if (postgres)
        await db.$executeRaw`
          SELECT pg_terminate_backend("pid") FROM pg_stat_activity WHERE "application_name" = ${sessionName}`;
    },
    run,
    /** Runs the probe and returns its data, or throws its error, as a client would see them. */
    async probe(
      input: ProbeInput & { key: string },
      call?: Parameters<typeof run>[1],
    ): Promise<{ execution: number; value: number }> {
      return runOnce.unwrap(await run(input, call)) as { execution: number; value: number };
    },
    async close() {
      await watcher?.close();
      if (store instanceof PostgresIdempotencyStore) await store.close();
      if (!opts.database) await database.close();
    },
  };
}

export type RunOnceHarness = Awaited<ReturnType<typeof createRunOnceHarness>>;

/** Lets pending promises and timers run, so that concurrent calls are really in flight. */
export const settle = (ms = 30) => sleep(ms);
