import type { Execution } from "run-once";
import type { Tx } from "../../db/client";
import { logger } from "service-kit/logger";
import { RequestRecorder } from "../../account/request-recorder";
import { chargeOrder } from "../../payments/charge-order";
import { PAYMENT_KEYSPACE } from "../../payments/keyspace";
import { router } from "../init";
import { sessionProcedure } from "../procedures";
import { runOnce } from "../idempotency/middleware";
import { chargeInput, chargeOutput, chargeFingerprinted } from "../../payments/schemas";

/** A recorder whose batches are dropped: everything of the record but its writes. */
const recorderWithoutWrites = new RequestRecorder(
  { append: () => Promise.resolve(), markReplyLost: () => Promise.resolve() },
  logger,
);

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
      return chargeOrder({ ...ctx, execution }, input);
    }),

  /** payments.charge as served, except that its account of attempts is never written. */
  chargeWithoutAccount: sessionProcedure
    .use(({ ctx, next }) => next({ ctx: { account: { ...ctx.account, recorder: recorderWithoutWrites } } }))
    .input(chargeInput)
    .output(chargeOutput)
    .use(runOnce({ keyspace: PAYMENT_KEYSPACE, fingerprinted: chargeFingerprinted }))
    .mutation(({ ctx, input }) => chargeOrder(ctx, input)),
});
