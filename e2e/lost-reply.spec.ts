import { LAB, expect, test } from "./fixtures";

test("a reply lost after commit is retried with the same key and replayed, not charged again", async ({
  shop,
  consoleErrors,
}) => {
  consoleErrors.expect(/net::ERR_INCOMPLETE_CHUNKED_ENCODING/);
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

  // The server's own account, drawn as the guide's lanes: the charge whose reply was lost, then the replay.
  const rows = shop.page.getByTestId("server-lanes").locator(".lanes-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-decision", "executed");
  await expect(rows.nth(0)).toHaveAttribute("data-reply-lost", "true");
  await expect(rows.nth(1)).toHaveAttribute("data-decision", "replayed");
  await expect(rows.nth(1)).toContainText("No reply reached the client");
  // The after-the-fact summary, computed from the server's account and the ledger.
  await expect(shop.page.getByTestId("account-summary")).toHaveText(
    "2 requests reached the server; 1 charge: attempt 1 executed and its reply was lost, attempt 2 replayed the stored result.",
  );
  await rows.nth(1).locator("summary").click();
  await expect(rows.nth(1).getByTestId("response-headers")).toContainText("Idempotent-Replayed: true");
  await expect(rows.nth(1).getByTestId("response-headers")).toContainText("Idempotency-Decision: replayed");
  await expect(shop.page.getByTestId("key-lifecycle").locator('[aria-current="step"]')).toHaveAttribute(
    "data-stage",
    "completed",
  );
  await expect(shop.page.locator('[data-cell="completed-same"]')).toHaveAttribute("data-latest", "true");
  await shop.capture("lost reply, replayed");
  await shop.expectLedger(orderId, 1);
});
