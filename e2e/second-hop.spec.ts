import { PROVIDER_DEFAULT_TIMEOUT_HOLD_MS } from "../provider/defaults";
import { LAB, expect, test } from "./fixtures";

/**
 * Faults at the second hop, between the shop and the payment provider. The
 * browser's payment carries the order's key; the shop's call to the provider
 * carries a key derived from it. Whatever breaks there, the provider charges
 * once, and the ledger's reconciliation finds the provider and the shop agreeing.
 */

/** Faults the shop rides out with the same provider key: one charge, the ledger and the provider agreeing. */
const RIDDEN_OUT = [
  [
    "the provider's reply is lost: the shop asks again with the same key and records its one charge",
    LAB.providerReplyLost,
  ],
  ["the provider is unavailable for a moment: the shop retries, and charges once", LAB.providerUnavailable],
  [
    "a stall between the provider's charge and the shop's record ends in one charge, recorded",
    LAB.stallBetweenHops,
  ],
] as const;

for (const [title, fault] of RIDDEN_OUT) {
  test(title, async ({ shop }) => {
    const orderId = await shop.orderWith(fault);
    await shop.payButton().click();
    await shop.expectCharged();
    await shop.expectLedger(orderId, 1);
  });
}

test("the provider is slower than the shop's timeout: the shop's retry waits for the same charge", async ({
  shop,
  page,
}) => {
  test.slow();
  const orderId = await shop.orderWith(LAB.providerTimeout);
  const clickedAt = Date.now();
  await shop.payButton().click();
  await shop.expectCharged();
  // The held request runs only when its hold ends: a second charge, if any, appears no sooner.
  await page.waitForTimeout(Math.max(0, clickedAt + PROVIDER_DEFAULT_TIMEOUT_HOLD_MS + 500 - Date.now()));
  await shop.expectLedger(orderId, 1);
});

test("the counter-example: a new provider key per try, after a lost provider reply, charges twice there", async ({
  shop,
  page,
}) => {
  const orderId = await shop.orderWith(LAB.naiveProviderCalls, LAB.providerReplyLost);
  await shop.payButton().click();
  await shop.expectCharged();

  // The shop recorded the charge it heard of; the provider made two, and the reconciliation says so.
  await shop.expectLedger(orderId, 1, { disagreements: 1 });
  const reconciled = page.locator(`[data-reconciled-order="${orderId}"]`);
  await expect(reconciled).toContainText("provider: 2 charges");
  await expect(reconciled).toContainText("which the shop has no record of");
});
