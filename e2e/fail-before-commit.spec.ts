import { LAB, expect, test } from "./fixtures";

test("a failure before commit releases the key, and the retry charges once", async ({
  shop,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 503/);
  const orderId = await shop.orderWith(LAB.failBeforeCommit);
  const paymentKey = await shop.paymentKey();

  await shop.payButton().click();
  await shop.expectCharged();

  await shop.expectTries({ outcome: "unavailable" }, { decision: "executed" });
  await expect.poll(() => shop.answerStatuses(paymentKey)).toEqual([503, 200]);
  await shop.capture("failed before commit, then charged");
  await shop.expectLedger(orderId, 1);
});
