import type { Services } from "../services-types";
import { findSessionOrder } from "../orders/order-view";
import { PAYMENT_KEYSPACE } from "../payments/keyspace";
import { LabError } from "./lab-error";

/** How far past its retention the lab puts a key: already expired, by a margin no clock skew hides. */
const AGED_BY_MS = 1_000;

/** Ages the order's last completed key past its retention (the grid's last row). */
export async function ageKeyPastRetention(
  ctx: Pick<Services, "db"> & { sessionId: string },
  orderId: string,
): Promise<{ key: string; expiresAt: string }> {
  const order = await findSessionOrder(ctx.db, ctx.sessionId, orderId);
  const attempts = await ctx.db.paymentAttempt.findMany({
    where: { orderId: order.id },
    select: { key: true },
  });
  const completed = await ctx.db.idempotencyKey.findFirst({
    where: {
      scope: ctx.sessionId,
      path: PAYMENT_KEYSPACE,
      key: { in: [order.paymentKey, ...attempts.map((attempt) => attempt.key)] },
      state: "COMPLETED",
    },
    orderBy: { completedAt: "desc" },
  });
  if (!completed) {
    throw new LabError(
      "NO_COMPLETED_KEY",
      "This order has no completed payment key to age: pay first, then age the key.",
    );
  }
  const expiresAt = new Date(Date.now() - AGED_BY_MS);
  await ctx.db.idempotencyKey.update({ where: { id: completed.id }, data: { expiresAt } });
  return { key: completed.key, expiresAt: expiresAt.toISOString() };
}
