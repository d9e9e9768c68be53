import { expect, test } from "./fixtures";

test("a customer buys, pays once, and the ledger shows one charge", async ({ shop, page, db }, testInfo) => {
  const orderId = await shop.placeOrder({ notebook: 2, "ceramic-mug": 1 });
  await expect(page.getByTestId("order-total")).toHaveText("$42.00");
  const paymentKey = await page.getByTestId("payment-key").textContent();

  await shop.payButton().click();
  await shop.expectCharged();
  await expect(page.getByTestId("order-status")).toHaveText("PAID");

  expect(await shop.ledgerChargeCount(orderId)).toBe("1");
  await page.screenshot({ path: testInfo.outputPath("ledger.png"), fullPage: true });

  const charges = await db.charge.findMany({ where: { orderId } });
  expect(charges).toHaveLength(1);
  expect(charges[0]).toMatchObject({ amountCents: 4200, idempotencyKey: paymentKey });
});

test("a double-clicked Pay button charges once", async ({ shop, db }) => {
  const orderId = await shop.placeOrder({ headphones: 1 });

  await shop.payButton().dblclick();
  await shop.expectCharged();

  expect(await shop.ledgerChargeCount(orderId)).toBe("1");
  expect(await db.charge.count({ where: { orderId } })).toBe(1);
});

test("reloading the order page and paying again charges once", async ({ shop, page, db }) => {
  const orderId = await shop.placeOrder({ "desk-plant": 1 });
  await page.reload();
  await shop.payButton().click();
  await shop.expectCharged();

  // A second tab, or a later visit, sends the same key and gets the same charge.
  await page.reload();
  await expect(page.getByTestId("order-status")).toHaveText("PAID");
  await expect(page.getByTestId("charge-count")).toContainText("Charged once");
  expect(await db.charge.count({ where: { orderId } })).toBe(1);
});
