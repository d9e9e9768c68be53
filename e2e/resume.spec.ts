import { LAB, expect, test } from "./fixtures";

test("a reload in the middle of a payment offers to finish it, with the same key: one charge", async ({
  shop,
  page,
  consoleErrors,
}) => {
  // A duplicate that outwaits the bound is told 409, and retries.
  consoleErrors.expect(/status of 409/);
  // The card network's 3 s and the 4 s stall before the record hold the key for 7 s: the reload, the
  // screenshots and the click all land while it is in progress, even on a loaded machine.
  const orderId = await shop.orderWith(LAB.slowProvider, LAB.stallBetweenHops);
  const paymentKey = await shop.paymentKey();

  await shop.payButton().click();
  await expect(shop.status()).toContainText("Processing");
  // Attempt 1 has reached the server, which holds the key while the card network is slow.
  await shop.expectKeyInProgress(paymentKey);
  await page.reload();

  // The server still holds the key in progress; the tab remembers an attempt with no answer.
  const finish = page.getByRole("button", { name: /^Finish payment/ });
  await expect(finish).toBeVisible();
  await expect(page.getByTestId("resume-note")).toBeVisible();
  await shop.capture("reloaded mid-payment");
  await finish.click();
  await shop.expectCharged();

  // The reload cut attempt 1 off: its outcome never reached the tab.
  await expect(shop.attempts().nth(0)).toHaveAttribute("data-outcome", "interrupted");
  // Its execution was in flight or done: the server coalesced or replayed, never executed again. (Past the
  // wait bound on a loaded machine, a 409 comes first, and the retry after it gets the outcome.)
  await expect(shop.attempts().last()).toHaveAttribute("data-decision", /^(coalesced|replayed)$/);
  for (const decision of await shop
    .attempts()
    .evaluateAll((lanes) => lanes.map((lane) => lane.dataset.decision)))
    expect(decision).not.toBe("executed");
  // The server answered attempt 2 from attempt 1's execution: it counted a replay of the key.
  await shop.expectReplayedByServer(paymentKey);
  await shop.expectLedger(orderId, 1);
});
