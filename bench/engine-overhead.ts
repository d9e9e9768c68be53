import { randomUUID } from "node:crypto";
import { RunOnce, fingerprint } from "../packages/run-once";
import type { Completion } from "../packages/run-once";
import { createDb } from "../server/db/client";
import type { Tx } from "../server/db/client";
import { runOnceStoreFor } from "../server/db/run-once-store";
import { percentile } from "./load";

/** The engine's two ways of completing a key that this case compares with the bare transaction. */
export type EngineMode = Extract<Completion, "in-transaction" | "single-transaction">;
export const ENGINE_MODES: EngineMode[] = ["in-transaction", "single-transaction"];

export interface EngineOverhead {
  /** Per mode, every call's latency. */
  withRunOnceMs: Record<EngineMode, number[]>;
  withoutMs: number[];
  /** Per mode, each round's median ratio: their spread shows how much of the result is the machine's noise. */
  roundRatios: Record<EngineMode, number[]>;
}

const QUIET = { warn: () => undefined, error: () => undefined };
const NO_FINAL_ERRORS = { isFinal: () => false, encode: () => null, decode: () => new Error("never stored") };

/**
 * The engine alone, in this process, with no HTTP and no framework: one
 * side effect (a ledger row, in a Prisma interactive transaction) called one
 * at a time, with run-once in each mode ("in-transaction": a claim that
 * commits on its own, then the transaction with the completion;
 * "single-transaction": the claim, the row and the completion in one
 * transaction) and without it, in rounds whose order reverses every round
 * (ABC CBA), on distinct keys. No server in the way: its constant cost would
 * flatter the ratio.
 */
export async function measureEngineOverhead(
  url: string,
  opts: { rounds: number; perRound: number },
): Promise<EngineOverhead> {
  const db = createDb(url);
  const { store, watcher } = runOnceStoreFor<Tx>(url, db, QUIET);
  const runOnce = new RunOnce<Tx>({ store, watcher, finalErrors: NO_FINAL_ERRORS, logger: QUIET });
  try {
    await db.$executeRawUnsafe(
      `CREATE TABLE IF NOT EXISTS "BenchLedger" ("id" TEXT PRIMARY KEY, "cents" INTEGER NOT NULL)`,
    );
    const writeLedgerRow = (tx: Tx) =>
      tx.$executeRaw`INSERT INTO "BenchLedger" ("id", "cents") VALUES (${randomUUID()}, ${1200})`;
    const without = () => db.$transaction(writeLedgerRow);
    const withRunOnce = (completion: EngineMode) => () =>
      runOnce.run(
        {
          scope: { caller: "bench", path: "ledger", key: randomUUID() },
          fingerprint: fingerprint("ledger", 1200),
          completion,
        },
        ({ commit }) => commit(writeLedgerRow),
      );
    const timed = async (call: () => Promise<unknown>, count: number) => {
      const latencies: number[] = [];
      for (let i = 0; i < count; i++) {
        const startedAt = performance.now();
        await call();
        latencies.push(performance.now() - startedAt);
      }
      return latencies;
    };
    const sides = [
      ...ENGINE_MODES.map((mode) => ({ mode, call: withRunOnce(mode) })),
      { mode: null, call: without },
    ];
    // Warm-up: connections, JIT, the pools of every side.
    for (const side of sides) await timed(side.call, 200);

    const result: EngineOverhead = {
      withRunOnceMs: { "in-transaction": [], "single-transaction": [] },
      withoutMs: [],
      roundRatios: { "in-transaction": [], "single-transaction": [] },
    };
    for (let round = 0; round < opts.rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      const latencies = new Map<EngineMode | null, number[]>();
      for (const side of order) latencies.set(side.mode, await timed(side.call, opts.perRound));
      const bare = latencies.get(null)!;
      result.withoutMs.push(...bare);
      for (const mode of ENGINE_MODES) {
        const mine = latencies.get(mode)!;
        result.withRunOnceMs[mode].push(...mine);
        result.roundRatios[mode].push(percentile(mine, 50) / percentile(bare, 50));
      }
    }
    return result;
  } finally {
    await runOnce.close();
    await db.$disconnect();
  }
}
