import type { z } from "zod";
import { roadOf } from "../account/road";
import type { Db } from "../db/client";
import { viewKeys } from "../keys/key-views";
import { PAYMENT_KEYSPACE } from "../payments/keyspace";
import { findSessionOrder, orderWithItems, toOrderSummary } from "./order-view";
import type { getOrderOutput } from "./schemas";

/** The session's order as its page shows it: its items, its charges, its payment attempts and its key's state. */
export async function orderDetailsOf(
  db: Db,
  sessionId: string,
  orderId: string,
): Promise<z.infer<typeof getOrderOutput>> {
  const order = await findSessionOrder(db, sessionId, orderId);
  const [items, charges, attempts, [paymentKey]] = await Promise.all([
    db.orderItem.findMany({ where: { orderId: order.id }, ...orderWithItems.items }),
    db.charge.findMany({ where: { orderId: order.id }, orderBy: { createdAt: "asc" } }),
    db.paymentAttempt.findMany({ where: { orderId: order.id }, orderBy: { createdAt: "asc" } }),
    viewKeys(db, { caller: sessionId, path: PAYMENT_KEYSPACE, keys: [order.paymentKey] }),
  ]);
  return {
    ...toOrderSummary({ ...order, items }),
    charges: charges.map(({ orderId: _order, createdAt, ...charge }) => ({
      ...charge,
      createdAt: createdAt.toISOString(),
    })),
    attempts: attempts.map((attempt) => ({
      key: attempt.key,
      status: attempt.status,
      providerCalled: attempt.providerCalledAt !== null,
      cardLast4: attempt.cardLast4,
      declineReason: attempt.declineReason,
      createdAt: attempt.createdAt.toISOString(),
      settledAt: attempt.settledAt?.toISOString() ?? null,
      settledBy: roadOf(attempt.settledBy),
    })),
    paymentKeyState: paymentKey?.state ?? "absent",
    paymentKeyLeaseExpiresAt:
      paymentKey?.state === "in_progress" ? paymentKey.lockedUntil.toISOString() : null,
  };
}
