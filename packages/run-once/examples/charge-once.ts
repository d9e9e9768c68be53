import { RunOnce, fingerprint } from "run-once";
import { SqlIdempotencyStore } from "run-once/sql";
import type { FinalErrors } from "run-once";
import type { SqlClient, SqlDatabase } from "run-once/sql";

export class Declined extends Error {}
const finalErrors: FinalErrors = {
  isFinal: (error) => error instanceof Declined, // stored and replayed; anything else rolls back
  encode: (error) => ({ message: (error as Error).message }),
  decode: (stored) => new Declined((stored as { message: string }).message),
};

export function chargeOnce<Tx extends SqlClient>(db: SqlDatabase<Tx>) {
  const runOnce = new RunOnce({ store: new SqlIdempotencyStore(db), finalErrors });
  return async (account: string, key: string, cents: number) => {
    const request = {
      scope: { caller: account, path: "charge", key },
      fingerprint: fingerprint("charge", { cents }),
    };
    const result = await runOnce.run(request, async ({ commit }) => {
      if (cents <= 0) throw new RangeError("a refusal before commit(): nothing stored, the key stays free");
      if (cents > 100_000) return commit(() => Promise.reject(new Declined("over the limit"))); // stored
      return commit(
        (tx) => tx.$executeRaw`INSERT INTO "Ledger" ("account", "cents") VALUES (${account}, ${cents})`,
      );
    });
    return { decision: result.decision, rows: runOnce.unwrap(result) }; // unwrap throws a stored Declined
  };
}
