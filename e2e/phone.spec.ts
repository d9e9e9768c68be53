import { PHONE } from "./environment";
import { expect, test } from "./fixtures";

test.use({ viewport: PHONE });

test("on a phone, a cart bar stays in view with the count and total, and leads to checkout", async ({
  shop,
  page,
}) => {
  await page.goto("/");
  const bar = page.getByTestId("cart-bar");
  await expect(bar).toHaveCount(0);
  for (const sku of ["notebook", "notebook", "ceramic-mug"]) {
    await page
      .locator(`[data-sku="${sku}"]`)
      .getByRole("button", { name: /^Add one/ })
      .click();
  }
  await expect(bar).toBeInViewport();
  await expect(bar).toContainText("3 items · $42.00");
  await shop.capture("phone cart bar");

  await bar.getByRole("link", { name: "Checkout" }).click();
  const placeOrder = page.getByRole("button", { name: "Place order" });
  await expect(placeOrder).toBeInViewport();
  await placeOrder.click();
  await page.waitForURL(/\/orders\/ord_/);
});

test("on a phone nothing scrolls sideways, ids are short and copyable, and tables become cards", async ({
  shop,
  page,
  context,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 404/);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const orderId = await shop.placeOrder({ backpack: 1, headphones: 2 });
  await shop.payButton().click();
  await shop.expectCharged();

  const orderIdOnPage = page.getByTestId("order-id");
  await expect(orderIdOnPage).toHaveText(`ord_…${orderId.slice(-4)}`);
  await page.getByRole("button", { name: `Copy the order id ${orderId}` }).click();
  await expect(page.getByText("Copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(orderId);

  for (const path of [`/orders/${orderId}`, "/orders", "/ledger", "/", "/no-such-page"]) {
    await page.goto(path);
    await expect(page.locator("main h1").first()).toBeVisible();
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${path} scrolls sideways`).toBeLessThanOrEqual(PHONE.width);
  }

  await page.goto("/ledger");
  const row = page.locator(`tr[data-order-summary="${orderId}"]`);
  await expect(row).toBeVisible();
  expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe("block");
  await expect(page.locator("thead").first()).not.toBeInViewport();
});
