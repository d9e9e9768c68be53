import type { KeyTransaction } from "../../idempotency/coordinator";
import { chargeOrder } from "../../payments/charge-order";
import { router } from "../init";
import { requireBenchBaseline } from "../middlewares/require-bench-baseline";
import { sessionProcedure } from "../procedures";
import { chargeInput, chargeOutput } from "../schemas/payments";

/**
 * The benchmark's baseline (BENCH_BASELINE=1 only): payments.charge's own
 * handler and ledger transaction, without the run-once middleware, so that
 * `npm run bench` measures what the middleware adds and nothing else.
 */
export const benchRouter = router({
  unprotectedCharge: sessionProcedure
    .use(requireBenchBaseline)
    .input(chargeInput)
    .output(chargeOutput)
    .mutation(({ ctx, input }) => {
      // The same transaction, without the key's claim and completion.
      const runOnce: KeyTransaction = {
        key: input.idempotencyKey ?? "",
        commit: (work) => ctx.db.$transaction(work),
      };
      return chargeOrder({ ...ctx, runOnce }, input);
    }),
});
