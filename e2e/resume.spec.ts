import { LAB, expect, test } from "./fixtures";

test("a reload in the middle of a payment follows it while its owner's lease is live, and it settles by itself: one charge", async ({
  shop,
  page,
}) => {
  // The card network's 3 s and the 4 s stall before the record hold the key for 7 s: the reload and the
  // screenshots all land while it is in progress, even on a loaded machine.
  const orderId = await shop.orderWith(LAB.slowProvider, LAB.stallBetweenHops);
  const paymentKey = await shop.paymentKey();

  await shop.payButton().click();
  await expect(shop.status()).toContainText("Processing");
  // Try 1 has reached the server, which holds the key while the card network is slow.
  await shop.expectKeyInProgress(paymentKey);
  await page.reload();

  // The server still holds the key under a live lease: nothing to press, the page follows it.
  await expect(page.getByTestId("following-note")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Finish payment/ })).toHaveCount(0);
  await shop.capture("reloaded mid-payment");
  await shop.expectCharged();

  // The reload cut try 1 off: its outcome never reached the tab, and no second try was needed.
  await expect(shop.tries()).toHaveCount(1);
  await expect(shop.tries().nth(0)).toHaveAttribute("data-outcome", "interrupted");
  await shop.expectLedger(orderId, 1);
});
