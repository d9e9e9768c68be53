import { randomUUID } from "node:crypto";
import { RunOnce, fingerprint } from "../packages/run-once";
import { createDb } from "../server/db/client";
import type { Tx } from "../server/db/client";
import { runOnceStoreFor } from "../server/db/run-once-store";
import { percentile } from "./load";

export interface EngineOverhead {
  withRunOnceMs: number[];
  withoutMs: number[];
  /** Each round's median ratio: their spread shows how much of the result is the machine's noise. */
  roundRatios: number[];
}

const QUIET = { warn: () => undefined, error: () => undefined };
const NO_FINAL_ERRORS = { isFinal: () => false, encode: () => null, decode: () => new Error("never stored") };

/**
 * The engine alone, in this process, with no HTTP and no framework: one
 * side effect (a ledger row, in a Prisma interactive transaction) called one
 * at a time, with run-once (claim, the same transaction with the completion)
 * and without it, in alternating rounds (ABBA) on distinct keys. No server
 * in the way: its constant cost would flatter the ratio.
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
    const withRunOnce = () =>
      runOnce.run(
        {
          scope: { caller: "bench", path: "ledger", key: randomUUID() },
          fingerprint: fingerprint("ledger", 1200),
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
    // Warm-up: connections, JIT, the pools of both sides.
    await timed(withRunOnce, 200);
    await timed(without, 200);

    const result: EngineOverhead = { withRunOnceMs: [], withoutMs: [], roundRatios: [] };
    for (let round = 0; round < opts.rounds; round++) {
      let a: number[] = [];
      let b: number[] = [];
      if (round % 2 === 0) {
        a = await timed(withRunOnce, opts.perRound);
        b = await timed(without, opts.perRound);
      } else {
        b = await timed(without, opts.perRound);
        a = await timed(withRunOnce, opts.perRound);
      }
      result.withRunOnceMs.push(...a);
      result.withoutMs.push(...b);
      result.roundRatios.push(percentile(a, 50) / percentile(b, 50));
    }
    return result;
  } finally {
    await runOnce.close();
    await db.$disconnect();
  }
}
