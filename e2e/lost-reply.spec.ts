import { LAB, expect, test } from "./fixtures";

test("a reply lost after commit is retried with the same key and replayed, not charged again", async ({
  shop,
}) => {
  const orderId = await shop.placeOrder({ notebook: 1 });
  const paymentKey = await shop.paymentKey();
  await shop.switchOn(LAB.dropReply);

  await shop.payButton().click();
  await shop.expectCharged();

  // Attempt 1 committed but its reply was lost; attempt 2 got the stored result.
  await expect(shop.attempts()).toHaveCount(2);
  await expect(shop.attempts().nth(0)).toHaveAttribute("data-outcome", "network_error");
  await expect(shop.attempts().nth(1)).toHaveAttribute("data-decision", "replayed");
  await shop.expectServerAnswered(paymentKey, 2);
  await shop.capture("lost reply, replayed");
  await shop.expectLedger(orderId, 1);
});
