import { randomBytes } from "node:crypto";
import type { Db, Tx } from "../db/client";
import { DomainError } from "../errors";
import { newPaymentKey } from "../payments/payment-key";
import { orderWithItems, toOrderSummary } from "./order-view";

/** Refused before anything is written, so the refusal is not stored under the form's key. */
export async function priceCart(db: Db, lines: Array<{ sku: string; quantity: number }>) {
  const quantities = new Map<string, number>();
  for (const line of lines) quantities.set(line.sku, (quantities.get(line.sku) ?? 0) + line.quantity);

  const products = await db.product.findMany({ where: { sku: { in: [...quantities.keys()] } } });
  const unknown = [...quantities.keys()].filter((sku) => !products.some((p) => p.sku === sku));
  if (unknown.length > 0) {
    throw new DomainError("UNKNOWN_PRODUCT", `Unknown product: ${unknown.join(", ")}.`);
  }
  return products.map((product) => ({
    sku: product.sku,
    quantity: quantities.get(product.sku) ?? 0,
    unitPriceCents: product.priceCents,
  }));
}

/** The payment key is made once, with the order: every retry reads it back from this row. */
export async function createOrder(tx: Tx, sessionId: string, items: Awaited<ReturnType<typeof priceCart>>) {
  const paymentKey = newPaymentKey();
  const order = await tx.order.create({
    data: {
      id: `ord_${randomBytes(12).toString("base64url")}`,
      sessionId,
      paymentKey,
      totalCents: items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0),
      items: { create: items },
      attempts: { create: { key: paymentKey } },
    },
    include: orderWithItems,
  });
  return toOrderSummary(order);
}
