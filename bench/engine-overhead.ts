import { randomUUID } from "node:crypto";
import { RunOnce, fingerprint } from "run-once";
import { runOnceStoreFor } from "service-kit/db/run-once-store";
import { createDb } from "../server/db/client";
import type { Tx } from "../server/db/client";
import { percentile } from "./load";

const QUIET = { warn: () => undefined, error: () => undefined };
const NO_FINAL_ERRORS = { isFinal: () => false, encode: () => null, decode: () => new Error("never stored") };
const SIDES = ["withRunOnce", "storeStatements", "without"] as const;
type Side = (typeof SIDES)[number];

const writeLedgerRow = (tx: Tx) =>
  tx.$executeRaw`INSERT INTO "BenchLedger" ("id", "cents") VALUES (${randomUUID()}, ${1200})`;

/** The engine in process, with and without run-once, in rounds of reversed order: no server's cost flatters the ratio. */
export async function measureEngineOverhead(
  url: string,
  opts: { rounds: number; perRound: number },
): Promise<{ latenciesMs: Record<Side, number[]>; roundRatios: number[] }> {
  const db = createDb(url);
  // The shop's store, its keys and the side effect through the one Prisma client, silent.
  const { store, watcher, close } = runOnceStoreFor<Tx>(url, db, QUIET);
  const runOnce = new RunOnce<Tx>({ store, watcher, finalErrors: NO_FINAL_ERRORS, logger: QUIET });
  const { ttlMs, leaseMs } = runOnce.settings;
  const scope = () => ({ caller: "bench", path: "ledger", key: randomUUID() });
  try {
    await db.$executeRawUnsafe(
      `CREATE TABLE IF NOT EXISTS "BenchLedger" ("id" TEXT PRIMARY KEY, "cents" INTEGER NOT NULL)`,
    );
    const calls: Record<Side, () => Promise<unknown>> = {
      withRunOnce: () =>
        runOnce.run({ scope: scope(), fingerprint: fingerprint("ledger", 1200) }, ({ commit }) =>
          commit(writeLedgerRow),
        ),
      // The floor of this design: the store's claim and completion, driven directly, none of the engine's code.
      storeStatements: async () => {
        const now = new Date();
        const claim = await store.claim(scope(), { fingerprint: "ledger", now, leaseMs, ttlMs });
        if (!("claimed" in claim)) throw new Error("a fresh key was found taken");
        await store.transaction(
          async (tx) => {
            await writeLedgerRow(tx);
            await store.complete(claim.claimed, { ok: true, data: null }, { now, ttlMs }, tx);
          },
          { maxWaitMs: 5_000 },
        );
        void store.relinquish(claim.claimed);
      },
      without: () => db.$transaction(async (tx) => writeLedgerRow(tx)),
    };
    const timed = async (call: () => Promise<unknown>, count: number) => {
      const latencies: number[] = [];
      for (let i = 0; i < count; i++) {
        const startedAt = performance.now();
        await call();
        latencies.push(performance.now() - startedAt);
      }
      return latencies;
    };
    for (const side of SIDES) await timed(calls[side], 200); // warm-up: connections, JIT, the pool

    // Each round's median ratio too: their spread shows how much of the result is the machine's noise.
    const latenciesMs = { withRunOnce: [], storeStatements: [], without: [] } as Record<Side, number[]>;
    const roundRatios: number[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      const inRound = {} as Record<Side, number[]>;
      for (const side of round % 2 === 0 ? SIDES : [...SIDES].reverse())
        inRound[side] = await timed(calls[side], opts.perRound);
      for (const side of SIDES) latenciesMs[side].push(...inRound[side]);
      roundRatios.push(percentile(inRound.withRunOnce, 50) / percentile(inRound.without, 50));
    }
    return { latenciesMs, roundRatios };
  } finally {
    await close();
    await db.$disconnect();
  }
}
