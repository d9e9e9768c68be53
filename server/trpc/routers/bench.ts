import type { Execution } from "run-once";
import type { Tx } from "../../db/client";
import { Account } from "../../account/accounted-run";
import { chargeOrder } from "../../payments/charge-order";
import { PAYMENT_KEYSPACE } from "../../payments/keyspace";
import { router } from "../init";
import { sessionProcedure } from "../procedures";
import { runOnce } from "../idempotency/middleware";
import { chargeInput, chargeOutput, chargeFingerprinted } from "../../payments/schemas";

/** A journal that writes nothing: everything of the account but its writes. */
const nowhere = {
  append: () => Promise.resolve(),
  markReplyLost: () => Promise.resolve(),
  write: () => Promise.resolve(),
  list: () => Promise.resolve([]),
  sweep: () => Promise.resolve(0),
};

/** The benchmark's baselines, served only with BENCH_BASELINE=1 (see served-router.ts). */
export const benchRouter = router({
  /** payments.charge's own handler and ledger transaction without the run-once middleware. */
  unprotectedCharge: sessionProcedure
    .input(chargeInput)
    .output(chargeOutput)
    .mutation(({ ctx, input }) => {
      // The same transaction, without the key's claim and completion.
      const execution: Execution<Tx> = {
        key: input.idempotencyKey ?? "",
        fingerprint: "",
        decision: "executed",
        generation: "",
        commit: (work) => ctx.db.$transaction(async (tx) => work(tx)),
      };
      const run = ctx.account.arrived({
        road: "client",
        scope: { caller: ctx.sessionId, path: PAYMENT_KEYSPACE, key: execution.key },
        fingerprint: "",
        body: {},
      });
      return chargeOrder({ ...ctx, execution: run.claimed(execution), run }, input);
    }),

  /** payments.charge as served, except that its account of runs is never written. */
  chargeWithoutAccount: sessionProcedure
    .use(({ ctx, next }) => next({ ctx: { account: new Account(nowhere, ctx.account.deps) } }))
    .input(chargeInput)
    .output(chargeOutput)
    .use(runOnce({ keyspace: PAYMENT_KEYSPACE, fingerprinted: chargeFingerprinted }))
    .mutation(({ ctx, input }) => chargeOrder(ctx, input)),
});
