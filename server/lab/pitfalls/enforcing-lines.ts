import type { BrokenRule } from "../schemas";

/** The guide's pitfalls as the lab shows them: its four broken rules, and the naive client's key per try. */
export type PitfallId = BrokenRule | "keys-per-try";

/** Where the shop keeps each rule: a file and a marker text in it (not a line number, which edits move). */
export const ENFORCING_LINES: Record<PitfallId, { path: string; marker: string }> = {
  "partial-commit": {
    path: "packages/run-once/execution.ts",
    marker: "await store.complete(claim, worked.outcome, context.completedAt(), tx)",
  },
  "memory-store": {
    path: "packages/run-once/sql-store.ts",
    marker: 'ON CONFLICT ("scope", "path", "key") DO NOTHING',
  },
  "keys-per-try": {
    path: "server/orders/place-order.ts",
    marker: "const paymentKey = newPaymentKey();",
  },
  "cached-error": {
    path: "server/trpc/idempotency/final-errors.ts",
    marker: "isFinal: (error) => FINAL_CODES.has(toTrpcError(error).code)",
  },
  "unbounded-wait": {
    path: "packages/run-once/run-once.ts",
    marker: "withinWait(inFlight, this.settings.waitMs)",
  },
};

/** The lab's source page at the line that enforces the pitfall's rule. */
export function enforcingLineHref(pitfall: PitfallId): string {
  return `/source/${ENFORCING_LINES[pitfall].path}?pitfall=${pitfall}#enforcing`;
}
