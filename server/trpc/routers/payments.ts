import { chargeOrder } from "../../payments/charge-order";
import { PAYMENT_KEYSPACE } from "../../payments/keyspace";
import { router } from "../init";
import { runOnceProcedure } from "../procedures";
import { chargeInput, chargeOutput, chargeFingerprinted } from "../../payments/schemas";

export const paymentsRouter = router({
  /** Run-once on the order's paymentKey: however often Pay is clicked, one charge. */
  charge: runOnceProcedure(chargeInput, chargeOutput, {
    keyspace: PAYMENT_KEYSPACE,
    fingerprinted: chargeFingerprinted,
  }).mutation(({ ctx, input }) => chargeOrder(ctx, input)),
});
