import { LAB, expect, test } from "./fixtures";

test("a decline is final: it is replayed, never retried into a charge", async ({ shop, page }) => {
  const orderId = await shop.placeOrder({ "ceramic-mug": 1 });
  await shop.switchOn(LAB.decline);
  const paymentKey = (await page.getByTestId("payment-key").textContent()) ?? "";

  await shop.payButton().click();
  await expect(shop.status()).toContainText("Declined");
  await expect(page.getByTestId("order-status")).toHaveText("DECLINED");
  await expect(shop.attempts()).toHaveCount(1);

  // Paying again with the order's key replays the stored decline.
  const replay = await page.request.post("/api/trpc/payments.charge", {
    data: { orderId, amountCents: 1800, idempotencyKey: paymentKey },
  });
  expect(replay.status()).toBe(402);
  expect(replay.headers()["idempotent-replayed"]).toBe("true");
  await shop.expectLedger(orderId, 0);
});

test("a declining test card is declined too", async ({ shop, page }) => {
  const orderId = await shop.placeOrder({ notebook: 1 });
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await shop.payButton().click();
  await expect(shop.status()).toContainText("Declined");
  await shop.expectLedger(orderId, 0);
});
