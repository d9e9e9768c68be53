import { router } from "../init";
import { runOnceProcedure } from "../procedures";
import { chargeInput, chargeOutput } from "../schemas/payments";
import { chargeOrder } from "../../payments/charge-order";

export const paymentsRouter = router({
  /** Run-once on the order's paymentKey: however often Pay is clicked, one charge. */
  charge: runOnceProcedure(chargeInput, chargeOutput).mutation(({ ctx, input }) => chargeOrder(ctx, input)),
});
