import { afterEach, expect, it } from "vitest";
import { newSessionId } from "../../session";
import { createTestApp } from "../../testing/test-app";
import type { TestApp } from "../../testing/test-app";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function pendingOrder(benchBaseline: boolean) {
  app = await createTestApp({ benchBaseline });
  const caller = app.caller(newSessionId());
  const order = await caller.orders.place({
    submissionKey: `sub-${crypto.randomUUID()}`,
    items: [{ sku: "notebook", quantity: 1 }],
  });
  const charge = () =>
    caller.bench.unprotectedCharge({
      orderId: order.id,
      amountCents: order.totalCents,
      idempotencyKey: order.paymentKey,
    });
  return { order, charge, charges: () => app!.services.db.charge.count({ where: { orderId: order.id } }) };
}

it("does not exist unless the benchmark turns it on", async () => {
  const { charge, charges } = await pendingOrder(false);
  await expect(charge()).rejects.toMatchObject({ code: "NOT_FOUND" });
  expect(await charges()).toBe(0);
});

it("charges without a key's claim when turned on: the baseline writes no key", async () => {
  const { order, charge, charges } = await pendingOrder(true);
  await expect(charge()).resolves.toMatchObject({ orderId: order.id, status: "captured" });
  expect(await charges()).toBe(1);
  expect(await app!.services.db.idempotencyKey.count({ where: { key: order.paymentKey } })).toBe(0);
});
