import { LAB, expect, test } from "./fixtures";

test("with a slow provider, a double-click and a second tab wait for one execution and share it", async ({
  shop,
  page,
  context,
}) => {
  const orderId = await shop.placeOrder({ headphones: 1 });
  const paymentKey = await shop.paymentKey();
  await shop.switchOn(LAB.slowProvider);
  const second = await context.newPage();
  await second.goto(page.url());
  await expect(shop.payButton(second)).toBeEnabled();

  await shop.payButton().dblclick();
  await expect(shop.status()).toContainText("Processing");
  await shop.payButton(second).click();

  await shop.expectCharged();
  await shop.expectCharged(second);
  const chargeIn = (tab: typeof page) => tab.getByTestId("payment-status").textContent();
  expect(await chargeIn(second)).toBe(await chargeIn(page));
  // The second tab waited for the execution in flight: the server says it coalesced.
  await expect(shop.attempts(second).last()).toHaveAttribute("data-decision", "coalesced");
  await expect(shop.attempts(second).last()).toContainText("coalesced");
  await shop.expectServerAnswered(paymentKey, 2);
  await shop.expectLedger(orderId, 1);
});
