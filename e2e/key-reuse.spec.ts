import { expect, test } from "./fixtures";

test("reusing the order's key with a different amount is refused with 422", async ({ shop, page }) => {
  const orderId = await shop.placeOrder({ backpack: 1 });
  await shop.payButton().click();
  await shop.expectCharged();

  await page.getByRole("button", { name: "Reuse this order's key with a different amount" }).click();
  await expect(page.getByTestId("reuse-answer")).toContainText("Rejected with 422");
  await expect(page.getByTestId("reuse-answer")).toContainText("different request body");
  await shop.expectLedger(orderId, 1);
});
