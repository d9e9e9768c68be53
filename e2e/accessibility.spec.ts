import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { LAB, expect, test } from "./fixtures";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length} nodes)`);
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`every page and payment state has no serious accessibility violations, in ${colorScheme} mode`, async ({
    shop,
    page,
    consoleErrors,
  }) => {
    consoleErrors.expect(/status of (402|404)/, /net::ERR_INCOMPLETE_CHUNKED_ENCODING/);
    // Six axe scans and four payments, two of them through lab faults: longer than one test's default.
    test.slow();
    await page.emulateMedia({ colorScheme });
    await page.goto("/");
    await expect(page.locator("[data-sku]").first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await shop.placeOrder({ notebook: 1 });
    expect(await seriousViolations(page)).toEqual([]);
    await shop.typeCard("4000 0000 0000 0002");
    await shop.payButton().click();
    await expect(shop.status()).toContainText("Declined");
    expect(await seriousViolations(page)).toEqual([]);
    await shop.typeCard("4242 4242 4242 4242");
    await shop.payButton().click();
    await shop.expectCharged();
    expect(await seriousViolations(page)).toEqual([]);

    await shop.placeOrder({ "desk-plant": 1 });
    await shop.switchOn(LAB.naiveClient);
    await shop.switchOn(LAB.dropReply);
    await page.getByRole("button", { name: /^Pay naively/ }).click();
    await expect(page.getByTestId("overcharge")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    for (const path of ["/ledger", "/orders", "/no-such-page"]) {
      await page.goto(path);
      await expect(page.locator("main h1").first()).toBeVisible();
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });
}

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
