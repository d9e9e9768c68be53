import { LAB, expect, test } from "./fixtures";

test("the naive client, with a new key per attempt, pays twice after a lost reply", async ({
  shop,
  page,
}) => {
  const orderId = await shop.placeOrder({ "desk-plant": 1 });
  await shop.switchOn(LAB.naiveClient);
  await shop.switchOn(LAB.dropReply);

  await page.getByRole("button", { name: /^Pay naively/ }).click();
  await shop.expectCharged();
  await expect(shop.attempts()).toHaveCount(2);

  await shop.expectLedger(orderId, 2);
  await expect(page.getByTestId("naive-mark")).toHaveCount(2);
});
