import { expect, test } from "./fixtures";

test("a customer buys, pays once, and the ledger shows one charge", async ({ shop, page, db }) => {
  const orderId = await shop.placeOrder({ notebook: 2, "ceramic-mug": 1 });
  await expect(page.getByTestId("order-total")).toHaveText("$42.00");
  const paymentKey = await page.getByTestId("payment-key").textContent();

  await shop.payButton().click();
  await shop.expectCharged();
  await expect(page.getByTestId("order-status")).toHaveText("PAID");

  await shop.expectLedger(orderId, 1);
  const charge = await db.charge.findFirstOrThrow({ where: { orderId } });
  expect(charge).toMatchObject({ amountCents: 4200, idempotencyKey: paymentKey });
});

test("a double-submitted order form places one order", async ({ shop, page, db }) => {
  await page.goto("/");
  await page
    .locator('[data-sku="notebook"]')
    .getByRole("button", { name: /^Add one/ })
    .click();
  // Two submits of the one form, as a double-click or an impatient Enter would send.
  await page.locator("form").evaluate((form: HTMLFormElement) => {
    form.requestSubmit();
    form.requestSubmit();
  });
  await page.waitForURL(/\/orders\/ord_/);
  const orderId = shop.orderIdFromUrl();
  const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
  expect(await db.order.count({ where: { sessionId: order.sessionId } })).toBe(1);
});

test("a double-clicked Pay button charges once", async ({ shop }) => {
  const orderId = await shop.placeOrder({ headphones: 1 });
  await shop.payButton().dblclick();
  await shop.expectCharged();
  await shop.expectLedger(orderId, 1);
});

test("reloading the order page and paying again charges once", async ({ shop, page }) => {
  const orderId = await shop.placeOrder({ "desk-plant": 1 });
  await page.reload();
  await shop.payButton().click();
  await shop.expectCharged();

  // A later visit sends the same key and gets the same charge.
  await page.reload();
  await expect(page.getByTestId("order-status")).toHaveText("PAID");
  await expect(page.getByTestId("charge-count")).toContainText("Charged once");
  await shop.expectLedger(orderId, 1);
});

test("three clicks across two tabs charge once, and both tabs show the same charge", async ({
  shop,
  page,
  context,
}) => {
  const orderId = await shop.placeOrder({ backpack: 1 });
  const second = await context.newPage();
  await second.goto(page.url());
  await expect(shop.payButton(second)).toBeEnabled();

  // The server, not the button, is what makes this safe: send all three at once.
  await Promise.all([shop.payButton().dblclick(), shop.payButton(second).click()]);
  await shop.expectCharged();
  await shop.expectCharged(second);
  const charged = (page: typeof second) => page.getByTestId("payment-status").textContent();
  expect(await charged(page)).toBe(await charged(second));
  await shop.expectLedger(orderId, 1);
});
