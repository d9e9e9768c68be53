import type { Db, Tx } from "../db/client";
import type { Prisma } from "../db/generated/sqlite/client";
import { DomainError } from "../errors";

export const orderWithItems = {
  items: { include: { product: true }, orderBy: { id: "asc" } },
} as const;

export function toOrderSummary(order: Prisma.OrderGetPayload<{ include: typeof orderWithItems }>) {
  return {
    id: order.id,
    totalCents: order.totalCents,
    paymentKey: order.paymentKey,
    status: order.status,
    createdAt: order.createdAt.toISOString(),
    items: order.items.map((item) => ({
      sku: item.sku,
      name: item.product.name,
      quantity: item.quantity,
      unitPriceCents: item.unitPriceCents,
    })),
  };
}

/** The order's row alone (a payment reads nothing more); another session's order is reported exactly like a missing one. */
export async function findSessionOrder(db: Db | Tx, sessionId: string, orderId: string) {
  const order = await db.order.findFirst({ where: { id: orderId, sessionId } });
  if (!order) throw new DomainError("ORDER_NOT_FOUND", `No order ${orderId} in this session.`);
  return order;
}
