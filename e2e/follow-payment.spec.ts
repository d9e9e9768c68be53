import { LAB, expect, test } from "./fixtures";

test("after a reload mid-charge the page follows the key in progress and shows the charge when it settles", async ({
  shop,
  page,
}) => {
  await shop.placeOrder({ "espresso-beans": 1 });
  const paymentKey = await shop.paymentKey();
  await shop.switchOn(LAB.slowProvider);

  await shop.payButton().click();
  await shop.expectKeyInProgress(paymentKey);
  await page.reload();

  // The server holds the key in progress: the page says so and follows it, without a click.
  // It names the request once the server's account holds it (see e2e/figure-agreement.ts).
  await expect(shop.status()).toContainText(
    /(A payment|Request #1) with this key is in progress on the server/,
  );
  await shop.capture("following a payment in progress");
  await expect(page.getByTestId("order-status")).toHaveText("PAID");
  await expect(shop.status()).toHaveText("Paid. Charged $14.50 to •••• 4242, once.");
  await expect(page.getByRole("button", { name: /^Finish payment/ })).toHaveCount(0);
  // The try the reload cut off says so, and nothing else about it.
  await expect(shop.tries().first()).toHaveAttribute("data-outcome", "interrupted");
  await expect(shop.tries().first()).not.toContainText(/retr|waited/);
  await shop.capture("followed payment settled");
});
