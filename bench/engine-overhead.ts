import { randomUUID } from "node:crypto";
import { PgDatabase } from "run-once/sql";
import { RunOnce, fingerprint } from "run-once";
import type { Completion } from "run-once";
import type { SqlClient, SqlDatabase } from "run-once/sql";
import { createDb } from "../server/db/client";
import { databaseProvider } from "service-kit/db/database-url";
import { runOnceStoreFor } from "service-kit/db/run-once-store";
import { percentile } from "./load";
import type { SideEffectDriver } from "./side-effect-driver";

/** The engine's two ways of completing a key that this case compares with the bare transaction. */
export type EngineMode = Extract<Completion, "in-transaction" | "single-transaction">;
export const ENGINE_MODES: EngineMode[] = ["in-transaction", "single-transaction"];

export interface DriverOverhead {
  /** Per mode, every call's latency. */
  withRunOnceMs: Record<EngineMode, number[]>;
  withoutMs: number[];
  /** Per mode, each round's median ratio: their spread shows how much of the result is the machine's noise. */
  roundRatios: Record<EngineMode, number[]>;
}

export type EngineOverhead = Partial<Record<SideEffectDriver, DriverOverhead>>;

const QUIET = { warn: () => undefined, error: () => undefined };
const NO_FINAL_ERRORS = { isFinal: () => false, encode: () => null, decode: () => new Error("never stored") };

/** The side effect, the same statement on either driver. */
const writeLedgerRow = (tx: SqlClient) =>
  tx.$executeRaw`INSERT INTO "BenchLedger" ("id", "cents") VALUES (${randomUUID()}, ${1200})`;

interface Side {
  driver: SideEffectDriver;
  /** Null for the bare transaction. */
  mode: EngineMode | null;
  call: () => Promise<unknown>;
}

/** The bare transaction and run-once in each mode, with the keys and the side effect on one driver. */
function sidesOn(driver: SideEffectDriver, db: SqlDatabase<SqlClient>, runOnce: RunOnce<SqlClient>): Side[] {
  const withRunOnce = (completion: EngineMode) => () =>
    runOnce.run(
      {
        scope: { caller: "bench", path: "ledger", key: randomUUID() },
        fingerprint: fingerprint("ledger", 1200),
        completion,
      },
      ({ commit }) => commit(writeLedgerRow),
    );
  return [
    ...ENGINE_MODES.map((mode) => ({ driver, mode, call: withRunOnce(mode) })),
    { driver, mode: null, call: () => db.$transaction(async (tx) => writeLedgerRow(tx)) },
  ];
}

/**
 * The engine alone, in this process, with no HTTP and no framework: one
 * side effect (a ledger row, in an interactive transaction) called one at a
 * time, with run-once in each mode ("in-transaction": a claim that commits
 * on its own, then the transaction with the completion; "single-transaction":
 * the claim, the row and the completion in one transaction) and without it,
 * in rounds whose order reverses every round (ABC CBA), on distinct keys. On
 * PostgreSQL, all of it twice: through Prisma, and through node-postgres,
 * where a statement costs a fraction of Prisma's (the keys then go through
 * the same driver as the side effect: the completion is one of its
 * transaction's statements). No server in the way: its constant cost would
 * flatter the ratio.
 */
export async function measureEngineOverhead(
  url: string,
  opts: { rounds: number; perRound: number },
): Promise<EngineOverhead> {
  const prisma = createDb(url);
  const pg = databaseProvider(url) === "postgresql" ? new PgDatabase(url) : null;
  const databases: Array<[SideEffectDriver, SqlDatabase<SqlClient>]> = [["prisma", prisma]];
  if (pg) databases.push(["pg", pg]);
  const engines = databases.map(([driver, db]) => {
    const { store, watcher } = runOnceStoreFor<SqlClient>(url, db, QUIET);
    const runOnce = new RunOnce<SqlClient>({ store, watcher, finalErrors: NO_FINAL_ERRORS, logger: QUIET });
    return { driver, db, runOnce };
  });
  try {
    await prisma.$executeRawUnsafe(
      `CREATE TABLE IF NOT EXISTS "BenchLedger" ("id" TEXT PRIMARY KEY, "cents" INTEGER NOT NULL)`,
    );
    const sides = engines.flatMap(({ driver, db, runOnce }) => sidesOn(driver, db, runOnce));
    const timed = async (call: () => Promise<unknown>, count: number) => {
      const latencies: number[] = [];
      for (let i = 0; i < count; i++) {
        const startedAt = performance.now();
        await call();
        latencies.push(performance.now() - startedAt);
      }
      return latencies;
    };
    // Warm-up: connections, JIT, the pools of every side.
    for (const side of sides) await timed(side.call, 200);

    const result: EngineOverhead = {};
    for (const { driver } of engines)
      result[driver] = {
        withRunOnceMs: { "in-transaction": [], "single-transaction": [] },
        withoutMs: [],
        roundRatios: { "in-transaction": [], "single-transaction": [] },
      };
    for (let round = 0; round < opts.rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      const latencies = new Map<Side, number[]>();
      for (const side of order) latencies.set(side, await timed(side.call, opts.perRound));
      for (const { driver } of engines) {
        const measured = result[driver]!;
        const of = (mode: EngineMode | null) =>
          latencies.get(sides.find((side) => side.driver === driver && side.mode === mode)!)!;
        const bare = of(null);
        measured.withoutMs.push(...bare);
        for (const mode of ENGINE_MODES) {
          measured.withRunOnceMs[mode].push(...of(mode));
          measured.roundRatios[mode].push(percentile(of(mode), 50) / percentile(bare, 50));
        }
      }
    }
    return result;
  } finally {
    for (const { runOnce } of engines) await runOnce.close();
    await pg?.end();
    await prisma.$disconnect();
  }
}
