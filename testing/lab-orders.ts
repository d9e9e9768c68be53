import type { z } from "zod";
import { expect } from "vitest";
import type { setLabSwitchesInput } from "../server/lab/schemas";
import type { ApiClient } from "./api-client";
import { dataOf } from "./api-client";

interface PlacedOrder {
  id: string;
  totalCents: number;
  paymentKey: string;
}

export type Switches = Omit<z.input<typeof setLabSwitchesInput>, "orderId">;

/** Places an order through the API, with lab switches (the shop's, the provider's) set on it. */
export async function placeOrderWith(client: ApiClient, switches: Switches = {}): Promise<PlacedOrder> {
  const placed = await client.post("orders.place", {
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "headphones", quantity: 1 }],
  });
  expect(placed.status).toBe(200);
  const order = dataOf<PlacedOrder>(placed);
  const set = await client.post("lab.setSwitches", { orderId: order.id, ...switches });
  expect(set.status).toBe(200);
  return order;
}

/** The request that pays an order in full with a key (the order's own unless another is given), by Stripe's test Visa. */
export function chargeBody(order: PlacedOrder, idempotencyKey = order.paymentKey) {
  return {
    orderId: order.id,
    amountCents: order.totalCents,
    idempotencyKey,
    paymentMethodId: "pm_card_visa",
  };
}
