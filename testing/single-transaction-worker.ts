/**
 * An owner in another process: it runs one key with completion
 * "single-transaction", writes a ledger row in the work, prints "inside" and
 * holds its transaction open for `holdMs` (or until it is killed, without),
 * then prints the run's result as JSON.
 * Usage: tsx single-transaction-worker.ts <json args>
 */
import { setTimeout as sleep } from "node:timers/promises";
import { RunOnce } from "run-once";
import { createDb } from "../server/db/client";
import type { Tx } from "../server/db/client";
import { runOnceStoreFor } from "service-kit/db/run-once-store";

interface OwnerProcessArgs {
  databaseUrl: string;
  scope: { caller: string; path: string; key: string };
  fingerprint: string;
  ledgerTable: string;
  holdMs?: number;
}

const args = JSON.parse(process.argv[2] ?? "{}") as OwnerProcessArgs;
const QUIET = { warn: () => undefined, error: () => undefined };
const NO_FINAL_ERRORS = { isFinal: () => false, encode: () => null, decode: () => new Error("never stored") };
const db = createDb(args.databaseUrl);
const { store, watcher } = runOnceStoreFor<Tx>(args.databaseUrl, db, QUIET);
const runOnce = new RunOnce<Tx>({ store, watcher, finalErrors: NO_FINAL_ERRORS, logger: QUIET });

const result = await runOnce.run(
  { scope: args.scope, fingerprint: args.fingerprint, completion: "single-transaction" },
  ({ commit }) =>
    commit(async (tx) => {
      await tx.$executeRawUnsafe(
        `INSERT INTO "${args.ledgerTable}" ("id") VALUES ('from the other process')`,
      );
      process.stdout.write("inside\n");
      await (args.holdMs === undefined ? new Promise(() => undefined) : sleep(args.holdMs));
      return "committed by the other process";
    }),
);
process.stdout.write(`${JSON.stringify(result)}\n`);
await runOnce.close();
await db.$disconnect();
