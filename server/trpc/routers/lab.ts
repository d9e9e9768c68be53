import { naiveCharge } from "../../lab/naive-charge";
import { readSwitches } from "../../lab/switches";
import { findSessionOrder } from "../../orders/order-view";
import { router } from "../init";
import { requireLab } from "../middlewares/require-lab";
import { sessionProcedure } from "../procedures";
import { labSwitchesInput, labSwitchesSchema, naiveChargeInput, setLabSwitchesInput } from "../schemas/lab";
import { chargeOutput } from "../schemas/payments";

const labProcedure = sessionProcedure.use(requireLab);

/** The fault-injection lab: per-order switches the server honours, and the naive counter-example. */
export const labRouter = router({
  switches: labProcedure
    .input(labSwitchesInput)
    .output(labSwitchesSchema)
    .query(async ({ ctx, input }) => {
      const order = await findSessionOrder(ctx.db, ctx.sessionId, input.orderId);
      return readSwitches(ctx.db, order.id);
    }),

  setSwitches: labProcedure
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

  naiveCharge: labProcedure
    .input(naiveChargeInput)
    .output(chargeOutput)
    .mutation(({ ctx, input }) => naiveCharge(ctx, input)),
});
