import { randomBytes, randomUUID } from "node:crypto";
import type { Db } from "../server/db/client";

export interface BenchOrder {
  id: string;
  totalCents: number;
  paymentKey: string;
}

/** Unpaid orders for one session, written straight in: the bench measures charges, not placing orders. */
export async function seedOrders(db: Db, sessionId: string, count: number): Promise<BenchOrder[]> {
  const orders = Array.from({ length: count }, () => ({
    id: `ord_${randomBytes(12).toString("base64url")}`,
    sessionId,
    paymentKey: `pay_${randomUUID()}`,
    totalCents: 1200,
  }));
  for (let start = 0; start < orders.length; start += 1000) {
    const batch = orders.slice(start, start + 1000);
    await db.order.createMany({ data: batch });
    await db.orderItem.createMany({
      data: batch.map((order) => ({ orderId: order.id, sku: "notebook", quantity: 1, unitPriceCents: 1200 })),
    });
    // Each order's open payment attempt under its key, as orders.place makes it: a charge settles it.
    await db.paymentAttempt.createMany({
      data: batch.map((order) => ({ key: order.paymentKey, orderId: order.id })),
    });
  }
  return orders;
}

/** Hands out the orders one by one; running out is a bug in the benchmark's sizing. */
export function orderQueue(orders: BenchOrder[]): () => BenchOrder {
  let next = 0;
  return () => {
    const order = orders[next++];
    if (!order) throw new Error("the benchmark ran out of seeded orders");
    return order;
  };
}
