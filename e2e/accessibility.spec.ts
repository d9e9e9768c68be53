import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length} nodes)`);
}

test("the checkout, order and ledger pages have no serious accessibility violations", async ({
  shop,
  page,
}) => {
  await page.goto("/");
  await expect(page.locator("[data-sku]").first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await shop.placeOrder({ notebook: 1 });
  expect(await seriousViolations(page)).toEqual([]);
  await shop.payButton().click();
  await shop.expectCharged();
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto("/ledger");
  await expect(page.locator("tr[data-order-summary]")).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
});

test("the whole purchase works with the keyboard alone", async ({ shop, page }) => {
  await page.goto("/");
  const add = page.locator('[data-sku="notebook"]').getByRole("button", { name: /^Add one/ });
  await expect(add).toBeVisible();

  // From the top of the page, Tab to the notebook's "+" and press it twice.
  await page.keyboard.press("Tab");
  for (let i = 0; i < 40 && !(await add.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(add).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Space");
  await expect(page.locator('[data-sku="notebook"] output')).toHaveText("2");

  const placeOrder = page.getByRole("button", { name: "Place order" });
  for (let i = 0; i < 40 && !(await placeOrder.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/orders\/ord_/);

  const pay = shop.payButton();
  await expect(pay).toBeEnabled();
  for (let i = 0; i < 40 && !(await pay.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Enter");
  await shop.expectCharged();
  // The answer takes the focus, so a screen reader announces it.
  await expect(shop.status()).toBeFocused();
  await shop.expectLedger(shop.orderIdFromUrl(), 1);
});
