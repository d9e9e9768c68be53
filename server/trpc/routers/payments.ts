import { chargeOrder } from "../../payments/charge-order";
import { PAYMENT_KEYSPACE } from "../../payments/keyspace";
import { router } from "../init";
import { runOnceProcedure } from "../procedures";
import { chargeInput, chargeOutput, maskedCharge } from "../../payments/schemas";

export const paymentsRouter = router({
  /** Run-once on the order's paymentKey: however often Pay is clicked, one charge. */
  charge: runOnceProcedure(chargeInput, chargeOutput, {
    keyspace: PAYMENT_KEYSPACE,
    keptBody: maskedCharge,
  }).mutation(({ ctx, input }) => chargeOrder(ctx, input)),
});
