import { ageKeyPastRetention } from "../../lab/age-key";
import { labProviderOf } from "../../lab/lab-provider";
import { naiveCharge } from "../../lab/naive-charge";
import { readSwitches, setSwitches } from "../../lab/switches";
import { findSessionOrder } from "../../orders/order-view";
import { router } from "../init";
import { sessionProcedure } from "../procedures";
import {
  ageKeyInput,
  ageKeyOutput,
  labSwitchesInput,
  labSwitchesSchema,
  naiveChargeInput,
  setLabSwitchesInput,
} from "../schemas/lab";
import { chargeOutput } from "../schemas/payments";

/**
 * The fault-injection lab: per-order switches the shop and its payment
 * provider honour, and the naive counter-example. Served only where the lab is
 * on (see served-router.ts); the production AppRouter does not contain it.
 */
export const labRouter = router({
  switches: sessionProcedure
    .input(labSwitchesInput)
    .output(labSwitchesSchema)
    .query(async ({ ctx, input }) => {
      const order = await findSessionOrder(ctx.db, ctx.sessionId, input.orderId);
      const [shop, provider] = await Promise.all([
        readSwitches(ctx.db, order.id),
        labProviderOf(ctx.provider).providerFaults(order.id),
      ]);
      return { shop, provider };
    }),

  setSwitches: sessionProcedure
    .input(setLabSwitchesInput)
    .output(labSwitchesSchema)
    .mutation(async ({ ctx, input }) => {
      const order = await findSessionOrder(ctx.db, ctx.sessionId, input.orderId);
      const [shop, provider] = await Promise.all([
        setSwitches(ctx.db, order.id, input.shop ?? {}),
        labProviderOf(ctx.provider).setProviderFaults(order.id, input.provider ?? {}),
      ]);
      return { shop, provider };
    }),

  /** Puts the order's completed key past its retention: the grid's "expired" row, without waiting a day. */
  ageKey: sessionProcedure
    .input(ageKeyInput)
    .output(ageKeyOutput)
    .mutation(({ ctx, input }) => ageKeyPastRetention(ctx, input.orderId)),

  naiveCharge: sessionProcedure
    .input(naiveChargeInput)
    .output(chargeOutput)
    .mutation(({ ctx, input }) => naiveCharge(ctx, input)),
});
