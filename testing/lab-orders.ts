import { expect } from "vitest";
import type { ApiClient } from "./api-client";
import { dataOf } from "./api-client";

export interface PlacedOrder {
  id: string;
  totalCents: number;
  paymentKey: string;
}

/** Places an order through the API, with lab switches set on it. */
export async function placeOrderWith(
  client: ApiClient,
  switches: Partial<Record<"ledgerDelayMs" | "dropReplies" | "stallsBeforeCommit", number>> = {},
): Promise<PlacedOrder> {
  const placed = await client.post("orders.place", {
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "headphones", quantity: 1 }],
  });
  expect(placed.status).toBe(200);
  const order = dataOf<PlacedOrder>(placed);
  const set = await client.post("lab.setSwitches", {
    orderId: order.id,
    switches: {
      dropReplies: 0,
      failuresBeforeCommit: 0,
      stallsBeforeCommit: 0,
      ledgerDelayMs: 0,
      decline: false,
      naiveClient: false,
      ...switches,
    },
  });
  expect(set.status).toBe(200);
  return order;
}

export function chargeBody(order: PlacedOrder) {
  return { orderId: order.id, amountCents: order.totalCents, idempotencyKey: order.paymentKey };
}
