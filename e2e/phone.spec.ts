import type { Locator, Page } from "@playwright/test";
import { laneLayout } from "~/app/_components/lanes-figure";
import { SCENARIOS } from "~/app/_lab/scenarios";
import { PHONE } from "./environment";
import { expect, test } from "./fixtures";

test.use({ viewport: PHONE });

/** A chosen scenario's lesson on a phone: its steps before Pay, a short panel, and the figure soon after. */
const LESSON = { figureTopPx: 1_600, panelWords: 150, labelPx: 12 };

/** Where a part of the page begins and ends, in CSS pixels from the top of the document. */
async function edgesOf(locator: Locator): Promise<{ top: number; bottom: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${String(locator)} is not on the page`);
  const scrollY = await locator.page().evaluate(() => window.scrollY);
  return { top: box.y + scrollY, bottom: box.y + box.height + scrollY };
}

/** Chooses a scenario as a person would, and waits until the server has its switches. */
async function choose(page: Page, id: string) {
  const saved = page.waitForResponse((response) => response.url().includes("lab.setSwitches"));
  await page.getByLabel("Try a scenario").selectOption(id);
  expect((await saved).ok()).toBe(true);
}

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

test("on a phone every scenario's lesson comes first: its steps above Pay, a panel of at most 150 words, the figure within 1,600 px", async ({
  shop,
  page,
}) => {
  // Every scenario, each chosen and measured.
  test.slow();
  await shop.placeOrder({ notebook: 1 });
  for (const scenario of SCENARIOS) {
    await test.step(scenario.id, async () => {
      await choose(page, scenario.id);
      const panel = page.getByTestId("scenario-panel");
      await expect(panel).toHaveAttribute("data-scenario", scenario.id);
      // Measured once the page has settled on the scenario's switches (the Pay button's verb follows them).
      await expect(async () => {
        const steps = await edgesOf(page.getByTestId("scenario-to-do"));
        const pay = await edgesOf(shop.payButton());
        expect(steps.bottom, "Do: ends above Pay").toBeLessThanOrEqual(pay.top);
        const figure = await edgesOf(page.getByTestId("server-lanes"));
        expect(figure.top, "the figure's top").toBeLessThanOrEqual(LESSON.figureTopPx);
      }).toPass({ timeout: 5_000 });
      const words = (await panel.innerText()).split(/\s+/).filter(Boolean).length;
      expect(words, "words in the scenario's panel").toBeLessThanOrEqual(LESSON.panelWords);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, "nothing scrolls sideways").toBeLessThanOrEqual(PHONE.width);
    });
  }
  await shop.capture("phone, the last scenario chosen");
});

test("on a phone the lanes' labels are at least 12 px, and their heads stay apart with two servers too", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/net::ERR_INCOMPLETE_CHUNKED_ENCODING/);
  await shop.placeOrder({ notebook: 1 });
  await choose(page, "lost-reply");
  await shop.payButton().click();
  await shop.expectCharged();
  const figures = page.locator(".lanes-figure");
  await expect(page.getByTestId("server-lanes").locator(".lanes-row")).toHaveCount(2);
  await expect(page.getByTestId("provider-lane").locator(".lanes-figure")).toBeVisible();

  // Every visible piece of text in the figures: the heads, the boxes on the lanes, the captions.
  const labels = await figures.evaluateAll((all) =>
    all.flatMap((figure) =>
      [...figure.querySelectorAll<HTMLElement>("*")]
        .filter((element) => element.checkVisibility())
        .filter((element) =>
          [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent?.trim()),
        )
        .map((element) => ({
          text: element.textContent?.trim().slice(0, 40),
          px: parseFloat(getComputedStyle(element).fontSize),
        })),
    ),
  );
  expect(labels.map((label) => label.text)).toContain("charge");
  expect(labels.filter((label) => label.px < LESSON.labelPx)).toEqual([]);

  // The heads as the figure draws them for two servers: none runs into another, nor into the first row.
  const heads = page.getByTestId("server-lanes").locator(".lanes-heads");
  const { receivers } = laneLayout("Client", "Network", ["Server A", "Server B"]);
  await heads.evaluate((element, xs) => {
    const server = element.lastElementChild as HTMLElement;
    const other = server.cloneNode(true) as HTMLElement;
    other.textContent = `${server.textContent ?? ""}1`;
    server.style.left = `${xs[0]}%`;
    other.style.left = `${xs[1]}%`;
    element.append(other);
  }, receivers);
  const boxes = await heads.locator("span").evaluateAll((spans) =>
    spans.map((span) => {
      const box = span.getBoundingClientRect();
      return { text: span.textContent, left: box.left, right: box.right, bottom: box.bottom };
    }),
  );
  expect(boxes).toHaveLength(4);
  for (const [i, box] of boxes.entries()) {
    const next = boxes[i + 1];
    if (next) expect(box.right, `${box.text} ends before ${next.text}`).toBeLessThanOrEqual(next.left);
  }
  const firstRow = await page.getByTestId("server-lanes").locator(".lanes-row").first().boundingBox();
  for (const box of boxes)
    expect(box.bottom, `${box.text} above the first row`).toBeLessThanOrEqual(firstRow?.y ?? 0);
});
