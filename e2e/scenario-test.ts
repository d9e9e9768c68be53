import { mkdir } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import path from "node:path";
import type { Page } from "@playwright/test";
import { DESKTOP, PHONE } from "./environment";
import { expectFigureAgrees } from "./figure-agreement";
import { expect, test } from "./fixtures";
import type { Shop } from "./fixtures";
import type { ProviderDb } from "../provider/db/client";
import type { ServerAccount } from "../app/_lib/server-account";
import { pairTries } from "../app/_lib/story/payment-story";

/** Where the screenshots of the scenarios' final states are kept after the run. */
const KEPT = path.join("test-results", "scenarios");
/** With TOUR_SCREENSHOTS=1, these scenarios' final states (SQLite, 1280 px) are written for the README's Tour. */
const TOUR = new Set(["lost-reply", "double-click", "keys-per-try"]);
const TOUR_FOLDER = path.join("docs", "tour");
const TOUR_CLIP = { x: 0, y: 0, width: DESKTOP.width, height: 1500 };

/** Chooses a scenario as a person would, and waits until the server has its switches. */
export async function choose(page: Page, id: string) {
  const saved = page.waitForResponse((response) => response.url().includes("lab.setSwitches"));
  await page.getByLabel("Try a scenario").selectOption(id);
  const savedResponse = await saved;
  expect(savedResponse.ok(), await savedResponse.text()).toBe(true);
  await expect(page.getByTestId("scenario-to-do")).toBeVisible();
}

/**
 * A scenario's test: a fresh order (one notebook unless told) with the scenario chosen, then the body,
 * then what happened, the kept screenshots and the ledger. `refusals`: the statuses its browser logs on purpose.
 */
export function scenarioTest(
  title: string,
  setup: {
    scenario: string;
    items?: Record<string, number>;
    refusals?: RegExp;
    /** What the picker then says happened; the charges the ledger must hold, which ends the run (its screenshots kept). */
    happened?: string | RegExp;
    charges?: number;
  },
  body: (run: {
    shop: Shop;
    page: Page;
    orderId: string;
    key: string;
    providerDb: ProviderDb;
  }) => Promise<void>,
) {
  test(title, async ({ shop, page, consoleErrors, providerDb }) => {
    if (setup.refusals) consoleErrors.expect(setup.refusals);
    const orderId = await shop.placeOrder(setup.items ?? { notebook: 1 });
    const key = await shop.paymentKey();
    await choose(page, setup.scenario);
    await body({ shop, page, orderId, key, providerDb });
    if (setup.happened !== undefined) await expect(happened(page)).toHaveText(setup.happened);
    await expectFigureAgrees(page, orderId);
    if (setup.charges === undefined) return;
    await keep(page, setup.scenario, orderId);
    await shop.expectLedger(orderId, setup.charges);
  });
}

export function happened(page: Page) {
  return page.getByTestId("scenario-picker").getByTestId("scenario-happened");
}

/**
 * Keeps the scenario's final state at both widths, proving at each that nothing scrolls sideways and that the
 * figure's marks agree with the ledger.
 */
export async function keep(page: Page, id: string, orderId: string) {
  const project = test.info().project.name;
  await mkdir(KEPT, { recursive: true });
  for (const [width, viewport] of [
    ["", DESKTOP],
    ["-phone", PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    const account = await expectFigureAgrees(page, orderId);
    await expectWholePage(page, account, `${id} at ${viewport.width} px`);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${id}: nothing scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(
      viewport.width,
    );
    const file = path.join(KEPT, `${project}-${id}${width}.png`);
    await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
    await test.info().attach(`${id} (${viewport.width} px)`, { path: file, contentType: "image/png" });
  }
  await page.setViewportSize(DESKTOP);
  if (process.env.TOUR_SCREENSHOTS === "1" && project === "sqlite" && TOUR.has(id)) {
    await mkdir(TOUR_FOLDER, { recursive: true });
    // Back from the phone's width, the page below the first screen is painted again a moment later.
    await page.waitForTimeout(1_000);
    // The page's top, down to the server's account: the payment, the picker and the lanes figure.
    await page.screenshot({
      path: path.join(TOUR_FOLDER, `${id}.png`),
      clip: TOUR_CLIP,
      fullPage: true,
      animations: "disabled",
    });
  }
}

/** A time label's seconds: "+2.35 s", "+12 s" or "+1 min 05 s". */
export function secondsOf(label: string): number {
  const [, sign, minutes, seconds] = /([+−])(?:(\d+) min )?([\d.]+) s/.exec(label) ?? [];
  return (sign === "−" ? -1 : 1) * (Number(minutes ?? 0) * 60 + Number(seconds));
}

/**
 * What every scenario's end state must be, at each width: no accessibility violation of any impact; a whole word in
 * every box of every lane; and one clock, the order's first request, for every lane's "+x s".
 */
async function expectWholePage(page: Page, account: ServerAccount, where: string) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    ),
    where,
  ).toEqual([]);
  const wordless = await page.locator(".lanes-work").evaluateAll((boxes) =>
    boxes
      // A word wrapped out of its box's one line is cut off: only its first word shows.
      .filter((box) => !box.textContent?.trim() || box.scrollHeight > box.clientHeight)
      .map((box) => box.closest("[data-decision]")?.getAttribute("data-decision") ?? "?"),
  );
  expect(wordless, `${where}: boxes without a whole word, by decision`).toEqual([]);
  const first = Date.parse(account.requests[0]?.at ?? "");
  const expected = [
    ...account.requests.map((a) => ["server-lanes", "data-server-try", a.at] as const),
    ...account.providerCalls.map((c) => ["provider-lane", "data-provider-call", c.at] as const),
    // The webhook lane draws the provider's own record of each try where it has one.
    ...pairTries(account).map(
      (pair) => ["webhook-lane", "data-webhook-delivery", (pair.try ?? pair.delivery)!.at] as const,
    ),
  ];
  for (const [figure, row, at] of expected) {
    const n = expected.filter((e) => e[1] === row).findIndex((e) => e[2] === at) + 1;
    const caption = await page
      .getByTestId(figure)
      .locator(`[${row}="${n}"] .lanes-caption`)
      .first()
      .textContent();
    const since = (Date.parse(at) - first) / 1000;
    expect(
      Math.abs(secondsOf(caption ?? "") - since),
      `${where}: ${figure} row ${n} "${caption}" is ${since} s after #1`,
    ).toBeLessThan(since < 10 ? 0.02 : 1);
  }
}

/** The provider's own record of the events it sent for an order: each sent how many times, and whether one was answered 2xx. */
export function eventsSentFor(providerDb: ProviderDb, orderId: string) {
  return providerDb.webhookEvent.findMany({
    where: { payload: { contains: `"order":"${orderId}"` } },
    select: { id: true, type: true, attempts: true, deliveredAt: true },
  });
}

/** The webhook lane's deliveries as drawn: each one's event and the shop's answer. */
export function drawnDeliveries(page: Page) {
  return page
    .getByTestId("webhook-lane")
    .locator("[data-webhook-delivery]")
    .evaluateAll((rows) =>
      rows.map((row) => [row.getAttribute("data-event"), row.getAttribute("data-status")]),
    );
}
