import type { Execution } from "~/packages/run-once";
import type { Tx } from "../../db/client";
import { chargeOrder } from "../../payments/charge-order";
import { router } from "../init";
import { sessionProcedure } from "../procedures";
import { chargeInput, chargeOutput } from "../schemas/payments";

/**
 * The benchmark's baseline, served only when `npm run bench` starts a server
 * with BENCH_BASELINE=1 (see served-router.ts): payments.charge's own handler
 * and ledger transaction without the run-once middleware, so that the bench
 * measures what the middleware adds and nothing else.
 */
export const benchRouter = router({
  unprotectedCharge: sessionProcedure
    .input(chargeInput)
    .output(chargeOutput)
    .mutation(({ ctx, input }) => {
      // The same transaction, without the key's claim and completion.
      const runOnce: Execution<Tx> = {
        key: input.idempotencyKey ?? "",
        fingerprint: "",
        commit: (work) => ctx.db.$transaction(async (tx) => work(tx)),
      };
      return chargeOrder({ ...ctx, runOnce }, input);
    }),
});
