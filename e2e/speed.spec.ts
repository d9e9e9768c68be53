import { expect, test } from "./fixtures";

declare global {
  interface Window {
    /** When the Pay button was first enabled, in performance.now() time. */
    payEnabledAt?: number;
  }
}

test("pages arrive with their data: the server's HTML holds the order and its Pay button", async ({
  shop,
  page,
}, testInfo) => {
  const orderId = await shop.placeOrder({ notebook: 1 });
  const html = await (await page.request.get(`/orders/${orderId}`)).text();
  expect(html).toContain("Dot-grid notebook");
  expect(html).toContain("Pay $12.00");
  expect(html).not.toContain("Loading the order");
  expect(await (await page.request.get("/")).text()).toContain("Espresso beans");

  // First paint, and when the Pay button can be pressed (it waits for React to hydrate).
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const pay = [...document.querySelectorAll("button")].find(
        (button) => button.textContent?.startsWith("Pay") && !button.disabled,
      );
      if (pay && window.payEnabledAt === undefined) window.payEnabledAt = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto(`/orders/${orderId}`);
  await expect(shop.payButton()).toBeEnabled();
  const timings = await page.evaluate(() => ({
    firstContentfulPaintMs: Math.round(
      performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
    ),
    payEnabledMs: Math.round(window.payEnabledAt ?? -1),
  }));
  testInfo.annotations.push({ type: "timings", description: JSON.stringify(timings) });
  expect(timings.firstContentfulPaintMs).toBeGreaterThan(0);
  expect(timings.payEnabledMs).toBeGreaterThan(0);
});
