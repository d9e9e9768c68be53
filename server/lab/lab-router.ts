import { z } from "zod";
import { ageKeyPastRetention } from "./age-key";
import { labProviderOf } from "./lab-provider";
import { naiveCharge } from "./naive-charge";
import { pitfallCharge } from "./pitfalls/pitfall-charge";
import { withPitfallCore } from "./pitfalls/with-pitfall-core";
import { readSwitches, setSwitches } from "./switches";
import { findSessionOrder } from "../orders/order-view";
import { getOrderInput } from "../orders/schemas";
import { PAYMENT_KEYSPACE } from "../payments/keyspace";
import { mergeRouters, router } from "../trpc/init";
import { runOnce } from "../trpc/idempotency/middleware";
import { sessionProcedure } from "../trpc/procedures";
import { appRouter } from "../trpc/routers/_app";
import {
  ageKeyOutput,
  labStallOutput,
  labSwitchesSchema,
  naiveChargeInput,
  setLabSwitchesInput,
} from "./schemas";
import { chargeInput, chargeOutput, chargeFingerprinted } from "../payments/schemas";

/** The fault lab's procedures, served only where the lab is on; AppRouter does not contain them. */
export const labRouter = router({
  switches: sessionProcedure
    .input(getOrderInput)
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
      // The provider's first: if it is down, the refusal leaves every switch as it was.
      const provider = await labProviderOf(ctx.provider).providerFaults(order.id, input.provider ?? {});
      return { shop: await setSwitches(ctx.db, order.id, input.shop ?? {}), provider };
    }),

  /** Which process to kill for the crash lesson: the one answering, and the one holding the stall. */
  stall: sessionProcedure
    .input(getOrderInput)
    .output(labStallOutput)
    .query(async ({ ctx, input }) => {
      const order = await findSessionOrder(ctx.db, ctx.sessionId, input.orderId);
      const row = await ctx.db.labSwitches.findUnique({ where: { orderId: order.id } });
      return { serverPid: process.pid, stallPid: row?.stallPid ?? null };
    }),

  /** Puts the order's completed key past its retention: the grid's "expired" row, without waiting a day. */
  ageKey: sessionProcedure
    .input(getOrderInput)
    .output(ageKeyOutput)
    .mutation(({ ctx, input }) => ageKeyPastRetention(ctx, input.orderId)),

  /** The catch-up's pass now, fresh events too: the lesson need not wait out its interval. */
  catchUpNow: sessionProcedure
    .output(z.number().int())
    .mutation(async ({ ctx }) => (await ctx.catchUp?.passNow()) ?? 0),

  naiveCharge: sessionProcedure
    .input(naiveChargeInput)
    .output(chargeOutput)
    .mutation(({ ctx, input }) => naiveCharge(ctx, input)),

  /** Pay in pitfall mode: under the core the order's broken rule picks, recorded as payments.charge. */
  pitfallCharge: sessionProcedure
    .input(chargeInput)
    .output(chargeOutput)
    .use(withPitfallCore)
    .use(runOnce({ keyspace: PAYMENT_KEYSPACE, fingerprinted: chargeFingerprinted }))
    .mutation(({ ctx, input }) =>
      pitfallCharge({ ...ctx, provider: labProviderOf(ctx.provider).pitfallProvider }, input),
    ),
});

/** The demo's router: the app and the fault lab's procedures. Its type is what the lab's pages call. */
export const labAppRouter = mergeRouters(appRouter, router({ lab: labRouter }));
export type LabAppRouter = typeof labAppRouter;
