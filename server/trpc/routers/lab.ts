import { naiveCharge } from "../../lab/naive-charge";
import { readSwitches } from "../../lab/switches";
import { findSessionOrder } from "../../orders/order-view";
import { router } from "../init";
import { sessionProcedure } from "../procedures";
import { labSwitchesInput, labSwitchesSchema, naiveChargeInput, setLabSwitchesInput } from "../schemas/lab";
import { chargeOutput } from "../schemas/payments";

/**
 * The fault-injection lab: per-order switches the server honours, and the
 * naive counter-example. Served only where the lab is on (see
 * served-router.ts); the production AppRouter does not contain it.
 */
export const labRouter = router({
  switches: sessionProcedure
    .input(labSwitchesInput)
    .output(labSwitchesSchema)
    .query(async ({ ctx, input }) => {
      const order = await findSessionOrder(ctx.db, ctx.sessionId, input.orderId);
      return readSwitches(ctx.db, order.id);
    }),

  setSwitches: sessionProcedure
    .input(setLabSwitchesInput)
    .output(labSwitchesSchema)
    .mutation(async ({ ctx, input }) => {
      const order = await findSessionOrder(ctx.db, ctx.sessionId, input.orderId);
      return ctx.db.labSwitches.upsert({
        where: { orderId: order.id },
        create: { orderId: order.id, ...input.switches },
        update: input.switches,
        omit: { orderId: true },
      });
    }),

  naiveCharge: sessionProcedure
    .input(naiveChargeInput)
    .output(chargeOutput)
    .mutation(({ ctx, input }) => naiveCharge(ctx, input)),
});
