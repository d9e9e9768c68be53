import { randomUUID } from "node:crypto";
import { RunOnce, fingerprint } from "run-once";
import { runOnceStoreFor } from "service-kit/db/run-once-store";
import { createDb } from "../server/db/client";
import type { Tx } from "../server/db/client";
import { percentile } from "./load";

const QUIET = { warn: () => undefined, error: () => undefined };
const NO_FINAL_ERRORS = { isFinal: () => false, encode: () => null, decode: () => new Error("never stored") };

const writeLedgerRow = (tx: Tx) =>
  tx.$executeRaw`INSERT INTO "BenchLedger" ("id", "cents") VALUES (${randomUUID()}, ${1200})`;

/** The engine in process, with and without run-once, AB BA rounds: no server's cost flatters the ratio. */
export async function measureEngineOverhead(
  url: string,
  opts: { rounds: number; perRound: number },
): Promise<{ withRunOnceMs: number[]; withoutMs: number[]; roundRatios: number[] }> {
  const db = createDb(url);
  // The shop's store, its keys and the side effect through the one Prisma client, silent.
  const { store, watcher, close } = runOnceStoreFor<Tx>(url, db, QUIET);
  const runOnce = new RunOnce<Tx>({ store, watcher, finalErrors: NO_FINAL_ERRORS, logger: QUIET });
  try {
    await db.$executeRawUnsafe(
      `CREATE TABLE IF NOT EXISTS "BenchLedger" ("id" TEXT PRIMARY KEY, "cents" INTEGER NOT NULL)`,
    );
    const withRunOnce = () =>
      runOnce.run(
        {
          scope: { caller: "bench", path: "ledger", key: randomUUID() },
          fingerprint: fingerprint("ledger", 1200),
        },
        ({ commit }) => commit(writeLedgerRow),
      );
    const without = () => db.$transaction(async (tx) => writeLedgerRow(tx));
    const timed = async (call: () => Promise<unknown>, count: number) => {
      const latencies: number[] = [];
      for (let i = 0; i < count; i++) {
        const startedAt = performance.now();
        await call();
        latencies.push(performance.now() - startedAt);
      }
      return latencies;
    };
    const sides = [withRunOnce, without];
    for (const side of sides) await timed(side, 200); // warm-up: connections, JIT, the pool

    // Each round's median ratio too: their spread shows how much of the result is the machine's noise.
    const result = { withRunOnceMs: [] as number[], withoutMs: [] as number[], roundRatios: [] as number[] };
    for (let round = 0; round < opts.rounds; round++) {
      const latencies = new Map<() => Promise<unknown>, number[]>();
      for (const side of round % 2 === 0 ? sides : [...sides].reverse())
        latencies.set(side, await timed(side, opts.perRound));
      const a = latencies.get(withRunOnce)!;
      const b = latencies.get(without)!;
      result.withRunOnceMs.push(...a);
      result.withoutMs.push(...b);
      result.roundRatios.push(percentile(a, 50) / percentile(b, 50));
    }
    return result;
  } finally {
    await close();
    await db.$disconnect();
  }
}
