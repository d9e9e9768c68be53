import { expect, test } from "./fixtures";

const REUSE = "Reuse this order's key with a different amount";

test("reusing the order's key with a different amount is refused with 422", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 422/);
  const orderId = await shop.placeOrder({ backpack: 1 });
  await shop.openAllSwitches();
  // An unused key has nothing to be reused against: the lab says so instead of sending a plain 400.
  await expect(page.getByRole("button", { name: REUSE })).toBeDisabled();

  await shop.payButton().click();
  await shop.expectCharged();

  await page.getByRole("button", { name: REUSE }).click();
  await expect(page.getByTestId("reuse-answer")).toContainText("Rejected with 422");
  await expect(page.getByTestId("reuse-answer")).toContainText("different request body");
  await shop.expectLedger(orderId, 1);
});
