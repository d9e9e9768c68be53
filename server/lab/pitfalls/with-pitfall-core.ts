import type { z } from "zod";
import { findSessionOrder } from "../../orders/order-view";
import { middleware } from "../../trpc/init";
import type { chargeInput } from "../../payments/schemas";
import { LabError } from "../lab-error";
import { readSwitches } from "../switches";
import { brokenCore } from "./pitfall-cores";

/** In pitfall mode, the core that breaks the order's rule stands in for the shop's ctx.runOnce. */
export const withPitfallCore = middleware(async ({ ctx, input, next }) => {
  const { orderId } = input as z.infer<typeof chargeInput>;
  if (!ctx.sessionId) throw new Error("withPitfallCore needs requireSession before it");
  const order = await findSessionOrder(ctx.db, ctx.sessionId, orderId);
  const { pitfallMode, brokenRule } = await readSwitches(ctx.db, order.id);
  if (!pitfallMode) {
    throw new LabError(
      "PITFALL_MODE_OFF",
      "This order is not in the lab's pitfall mode: pay it with payments.charge.",
    );
  }
  const runOnce = brokenRule ? brokenCore(ctx.db, ctx.runOnce.settings, brokenRule) : ctx.runOnce;
  return next({ ctx: { runOnce, brokenRule } });
});
