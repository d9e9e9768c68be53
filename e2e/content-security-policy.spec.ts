import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The pages work under the Content-Security-Policy of proxy.ts: the
 * browser reports no violation while a customer goes through every page,
 * places an order and pays it.
 */
test("every page loads and works without a Content-Security-Policy violation", async ({ shop, page }) => {
  const violations = await watchViolations(page);

  for (const path of ["/", "/orders", "/ledger"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  await shop.placeOrder({ notebook: 1 });
  // The one frame the page may hold is the provider's card field; the page itself talks to its own origin only.
  const policy = new Map(
    (await page.request.get(page.url()))
      .headers()
      ["content-security-policy"]!.split(/;\s*/)
      .map((directive) => [directive.split(" ")[0], directive] as const),
  );
  const fieldOrigin = new URL((await page.locator("iframe.card-field").getAttribute("src"))!).origin;
  expect(policy.get("frame-src")).toBe(`frame-src ${fieldOrigin}`);
  expect(policy.get("connect-src")).toBe("connect-src 'self'");
  await shop.payButton().click();
  await shop.expectCharged();
  await page.reload();
  await expect(page.getByTestId("order-status")).toHaveText("PAID");

  expect(violations).toEqual([]);
});

/** Collects the violations the browser reports: as console errors and as securitypolicyviolation events. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) {
      violations.push(message.text());
    }
  });
  await page.exposeFunction("reportViolation", (violation: string) => violations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { reportViolation(violation: string): void }).reportViolation;
      report(
        `${event.violatedDirective} blocked ${event.blockedURI} in ${event.documentURI} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  return violations;
}
