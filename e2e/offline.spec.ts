import { expect, test } from "./fixtures";

test("paying offline says so, shows the attempt waiting, and sends it with the same key when the connection returns", async ({
  shop,
  page,
  context,
  consoleErrors,
}) => {
  // The order page's account, read every 1.5 s, may be on its way when the connection drops.
  consoleErrors.expect(/net::ERR_INTERNET_DISCONNECTED/);
  await shop.placeOrder({ notebook: 1 });
  const paymentKey = await shop.paymentKey();

  await context.setOffline(true);
  await shop.payButton().click();
  await expect(shop.status()).toContainText("You are offline.");
  await expect(shop.status()).toContainText("will be sent with its key");
  await expect(page.getByTestId("connection-notice")).toContainText("You are offline.");
  await expect(shop.attempts().last()).toHaveAttribute("data-outcome", "waiting");
  await expect(shop.attempts().last()).toContainText("waiting for the connection: not sent yet");
  await expect(page.getByRole("button", { name: "Waiting for the connection…" })).toBeDisabled();
  await shop.capture("offline, payment waiting");

  await context.setOffline(false);
  await expect(shop.status()).toHaveText("Paid. Charged $12.00 to •••• 4242, once.");
  // The payment went out once the connection was back, with the order's key.
  await shop.expectServerAnswered(paymentKey, 1);
  await expect(shop.attempts().last()).toHaveAttribute("data-decision", "executed");
});
