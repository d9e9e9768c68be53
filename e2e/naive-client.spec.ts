import { LAB, expect, test } from "./fixtures";

test("the naive client's double charge is shown as damage: charged twice, a key per try, the extra charge marked", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/net::ERR_INCOMPLETE_CHUNKED_ENCODING/);
  const orderId = await shop.placeOrder({ "desk-plant": 1 });
  await shop.switchOn(LAB.naiveClient);
  await shop.switchOn(LAB.dropReply);

  await page.getByRole("button", { name: /^Pay naively/ }).click();

  // Not a green success: a red alert that says what happened.
  const overcharge = page.getByTestId("overcharge");
  await expect(overcharge).toHaveAttribute("role", "alert");
  await expect(overcharge).toContainText("Charged twice: $48.00 taken for an order of $24.00");
  await expect(shop.status()).not.toContainText("Paid.");
  await expect(page.getByTestId("charge-count")).toHaveText("2 charges for one order: 1 extra.");
  await expect(page.locator("[data-charge-id][data-extra-charge]")).toHaveCount(1);

  // Each try shows the key it carried: two tries, two keys, and the retry flagged.
  await expect(shop.tries()).toHaveCount(2);
  const keys = await shop.tries().evaluateAll((lanes) => lanes.map((lane) => lane.getAttribute("data-key")));
  expect(keys.every((key) => key?.startsWith("naive_"))).toBe(true);
  expect(new Set(keys).size).toBe(2);
  await expect(page.getByTestId("new-key-warning")).toContainText("Retried with a new key (try 2)");
  await expect(page.locator(".timeline")).not.toContainText("Every try sends the order's payment key");
  await shop.capture("naive client charged twice");

  await shop.expectLedger(orderId, 2);
  await expect(page.getByTestId("naive-mark")).toHaveCount(2);
  await expect(page.locator(`tr[data-order-id="${orderId}"][data-extra-charge]`)).toHaveCount(1);
  await expect(page.locator('[data-counter="extra-charges"] dd')).toHaveText("1");
});
