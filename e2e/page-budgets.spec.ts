import type { Locator, Page } from "@playwright/test";
import { DESKTOP, PHONE } from "./environment";
import { expect, test } from "./fixtures";

/**
 * The order page teaches one lesson at a time: before anyone pays it shows
 * little, and a chosen scenario's steps, the Pay button and the figure sit
 * near the top, on a laptop and on a phone.
 */
const BUDGET = { words: 400, controls: 15, desktopPx: 1_600, phonePx: 2_400 };

/** Visible words and controls on the page, as a person sees them. */
function visibleLoad(page: Page) {
  return page.evaluate(() => {
    const visible = (element: Element) => (element as HTMLElement).checkVisibility();
    const controls = [
      ...document.querySelectorAll("a[href], button, input, select, textarea, summary"),
    ].filter(visible);
    return { words: document.body.innerText.split(/\s+/).filter(Boolean).length, controls: controls.length };
  });
}

/** How far down the page an element ends, in CSS pixels from the top of the document. */
async function bottomOf(locator: Locator): Promise<number> {
  const box = await locator.first().boundingBox();
  if (!box) throw new Error(`${String(locator)} is not on the page`);
  return box.y + box.height + (await locator.page().evaluate(() => window.scrollY));
}

test("before paying, with no scenario chosen: at most 400 words and 15 controls", async ({ shop, page }) => {
  await shop.placeOrder({ notebook: 1 });
  const load = await visibleLoad(page);
  expect(load.words).toBeLessThanOrEqual(BUDGET.words);
  expect(load.controls).toBeLessThanOrEqual(BUDGET.controls);
});

for (const [width, viewport, budget] of [
  ["1280 px", DESKTOP, BUDGET.desktopPx],
  ["390 px", PHONE, BUDGET.phonePx],
] as const) {
  test(`at ${width}, a chosen scenario's steps, Pay and the top of the figure fit in ${budget} px`, async ({
    shop,
    page,
  }) => {
    await page.setViewportSize(viewport);
    await shop.placeOrder({ notebook: 1 });
    await page.getByLabel("Try a scenario").selectOption("lost-reply");
    await expect(page.getByTestId("scenario-to-do")).toBeVisible();
    const parts = {
      steps: page.getByTestId("scenario-to-do"),
      pay: shop.payButton(),
      figure: page.getByRole("heading", { name: "What the server saw" }),
    };
    for (const [name, part] of Object.entries(parts))
      expect(await bottomOf(part), name).toBeLessThanOrEqual(budget);
  });
}
