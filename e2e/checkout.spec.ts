import { LAB, expect, test } from "./fixtures";

test("a customer buys, pays once, and the ledger shows one charge", async ({ shop, page, db }) => {
  const orderId = await shop.placeOrder({ notebook: 2, "ceramic-mug": 1 });
  await expect(page.getByTestId("order-total")).toHaveText("$42.00");
  const paymentKey = await shop.paymentKey();

  await shop.capture("order to pay");
  await shop.payButton().click();
  await expect(shop.status()).toHaveText("Paid. Charged $42.00 to •••• 4242, once.");
  await expect(page.getByTestId("order-status")).toHaveText("PAID");
  await shop.capture("paid");

  await shop.expectLedger(orderId, 1);
  const charge = await db.charge.findFirstOrThrow({ where: { orderId } });
  expect(charge).toMatchObject({ amountCents: 4200, idempotencyKey: paymentKey });
});

test("a double-submitted order form sends its key twice and places one order", async ({ shop, page, db }) => {
  await page.goto("/");
  await page
    .locator('[data-sku="notebook"]')
    .getByRole("button", { name: /^Add one/ })
    .click();
  const submissionKey = (await page.getByTestId("submission-key").getAttribute("data-value")) ?? "";
  expect(submissionKey).toMatch(/^sub_/);
  // Two submits of the one form in one tick, as a double-click that beats the disabled button would send.
  await page.locator("form").evaluate((form: HTMLFormElement) => {
    form.requestSubmit();
    form.requestSubmit();
  });
  await page.waitForURL(/\/orders\/ord_/);

  await shop.expectServerAnswered(submissionKey, 2);
  const order = await db.order.findUniqueOrThrow({ where: { id: shop.orderIdFromUrl() } });
  expect(await db.order.count({ where: { sessionId: order.sessionId } })).toBe(1);
});

test("a double-click that beats the disabled Pay button sends the key twice, and charges once", async ({
  shop,
}) => {
  const orderId = await shop.placeOrder({ headphones: 1 });
  const paymentKey = await shop.paymentKey();

  await shop.submitPaymentTwice();
  await shop.expectCharged();

  // Both requests reached the server and got the one charge.
  await shop.expectServerAnswered(paymentKey, 2);
  await shop.expectLedger(orderId, 1);
});

test("a tab left open pays again after the order was paid, and gets the same charge", async ({
  shop,
  page,
  context,
}) => {
  const orderId = await shop.placeOrder({ "desk-plant": 1 });
  const paymentKey = await shop.paymentKey();
  const stale = await context.newPage();
  await stale.goto(page.url());
  await expect(shop.payButton(stale)).toBeEnabled();

  await shop.payButton().click();
  await shop.expectCharged();
  // The stale tab still offers Pay: it sends the same key, and gets the stored charge back.
  await shop.payButton(stale).click();
  await shop.expectCharged(stale);
  expect(await shop.status(stale).textContent()).toBe(await shop.status().textContent());
  await shop.expectServerAnswered(paymentKey, 2);

  await stale.reload();
  await expect(stale.getByTestId("order-status")).toHaveText("PAID");
  await expect(stale.getByTestId("charge-count")).toHaveText("One charge.");
  await shop.expectLedger(orderId, 1);
});

test("three clicks across two tabs charge once, and both tabs show the same charge", async ({
  shop,
  page,
  context,
}) => {
  const orderId = await shop.placeOrder({ backpack: 1 });
  const paymentKey = await shop.paymentKey();
  // A slow card network keeps the first charge in flight while the others arrive.
  await shop.switchOn(LAB.slowProvider);
  const second = await context.newPage();
  await second.goto(page.url());
  await expect(shop.payButton(second)).toBeEnabled();

  // The server, not the button, is what makes this safe: send all three at once.
  await Promise.all([shop.payButton().dblclick(), shop.payButton(second).click()]);
  await shop.expectCharged();
  await shop.expectCharged(second);
  expect(await shop.status(second).textContent()).toBe(await shop.status().textContent());
  // Whichever tab came second waited for the execution in flight: the server says it coalesced.
  const decisions = [page, second].map((tab) => shop.tries(tab).last().getAttribute("data-decision"));
  expect((await Promise.all(decisions)).sort()).toEqual(["coalesced", "executed"]);
  await shop.expectServerAnswered(paymentKey, 2);
  await shop.expectLedger(orderId, 1);
});
