import { randomBytes, randomUUID } from "node:crypto";
import type { Tx } from "../db/client";
import { DomainError } from "../errors";
import { orderWithItems, toOrderSummary } from "./order-view";
import type { OrderSummary } from "./order-view";

export interface OrderLine {
  sku: string;
  quantity: number;
}

/**
 * Creates the order and, with it, the payment's idempotency key: the key is
 * made once, when the customer commits to buying, and every payment attempt
 * (any tab, any reload, any retry) reads it back from this row.
 */
export async function placeOrder(tx: Tx, sessionId: string, lines: OrderLine[]): Promise<OrderSummary> {
  const quantities = new Map<string, number>();
  for (const line of lines) quantities.set(line.sku, (quantities.get(line.sku) ?? 0) + line.quantity);

  const products = await tx.product.findMany({ where: { sku: { in: [...quantities.keys()] } } });
  const unknown = [...quantities.keys()].filter((sku) => !products.some((p) => p.sku === sku));
  if (unknown.length > 0) {
    throw new DomainError("UNKNOWN_PRODUCT", `Unknown product: ${unknown.join(", ")}.`);
  }

  const items = products.map((product) => ({
    sku: product.sku,
    quantity: quantities.get(product.sku) ?? 0,
    unitPriceCents: product.priceCents,
  }));
  const order = await tx.order.create({
    data: {
      id: `ord_${randomBytes(12).toString("base64url")}`,
      sessionId,
      paymentKey: `pay_${randomUUID()}`,
      totalCents: items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0),
      items: { create: items },
    },
    include: orderWithItems,
  });
  return toOrderSummary(order);
}
