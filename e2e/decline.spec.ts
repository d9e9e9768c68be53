import { LAB, expect, test } from "./fixtures";

const DECLINING_CARD = "4000 0000 0000 0002";

test("a declined card leaves the order payable: another card pays it, once, under a new key", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 402/);
  const orderId = await shop.placeOrder({ notebook: 1 });
  const declinedKey = await shop.paymentKey();

  await shop.typeCard(DECLINING_CARD);
  await shop.payButton().click();
  const declined = "Declined: Your card was declined. No charge was made to the card ending 0002.";
  await expect(shop.status()).toContainText(declined);
  await expect(shop.tries().first()).toContainText("HTTP 402, declined: a final answer");
  await shop.capture("declined");

  // The decline, its reason and the next attempt come from the server: they survive a reload.
  await page.reload();
  await expect(shop.status()).toContainText(declined);
  await expect(shop.status()).toContainText("Pay with another card");
  await expect(page.getByText(/No charge yet/)).toHaveCount(0);
  await expect(page.getByTestId("order-status")).toHaveText("PENDING");
  await expect(page.getByTestId("charge-count")).toHaveText("No charge.");
  const nextKey = await shop.paymentKey();
  expect(nextKey).not.toBe(declinedKey);
  const attempts = page.getByTestId("payment-attempts").locator("li");
  await expect(attempts).toHaveCount(2);
  await expect(attempts.nth(0)).toHaveAttribute("data-attempt-status", "DECLINED");
  await expect(attempts.nth(0).locator(`[data-value="${declinedKey}"]`)).toBeVisible();
  await expect(attempts.nth(0)).toContainText("•••• 0002");
  await expect(attempts.nth(0)).toContainText("Your card was declined.");
  await expect(attempts.nth(1)).toHaveAttribute("data-attempt-status", "OPEN");

  // The declined request, sent again, still gets its decline.
  const replay = await page.request.post("/api/trpc/payments.charge", {
    data: {
      orderId,
      amountCents: 1200,
      idempotencyKey: declinedKey,
      paymentMethodId: "pm_card_chargeDeclined",
    },
  });
  expect(replay.status()).toBe(402);
  expect(replay.headers()["idempotent-replayed"]).toBe("true");

  // Another card, submitted twice at once: one charge.
  await shop.typeCard("4242 4242 4242 4242");
  await expect(shop.payButton()).toHaveText("Pay $12.00 with another card");
  await shop.submitPaymentTwice();
  await expect(shop.status()).toHaveText("Paid. Charged $12.00 to •••• 4242, once.");
  await shop.expectServerAnswered(nextKey, 2);
  await expect(attempts.nth(1)).toHaveAttribute("data-attempt-status", "SUCCEEDED");
  await shop.expectLedger(orderId, 1);
});

test("a decline is final for its key: it is replayed, never retried into a charge", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 402/);
  const orderId = await shop.placeOrder({ "ceramic-mug": 1 });
  await shop.switchOn(LAB.decline);
  const paymentKey = await shop.paymentKey();

  await shop.payButton().click();
  await expect(shop.status()).toContainText("Declined");
  await expect(shop.tries()).toHaveCount(1);

  // Paying again with that attempt's key replays the stored decline.
  const replay = await page.request.post("/api/trpc/payments.charge", {
    data: { orderId, amountCents: 1800, idempotencyKey: paymentKey, paymentMethodId: "pm_card_visa" },
  });
  expect(replay.status()).toBe(402);
  expect(replay.headers()["idempotent-replayed"]).toBe("true");
  await shop.expectLedger(orderId, 0);
});
