import { test as base, expect } from "@playwright/test";
import type { BrowserContext, Page, Request, TestInfo } from "@playwright/test";
import { createDb } from "../server/db/client";
import type { Db } from "../server/db/client";
import { createProviderDb } from "../provider/db/client";
import type { ProviderDb } from "../provider/db/client";
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { DESKTOP, E2E_SERVERS, PHONE } from "./environment";

/** The numbers the provider's test-card buttons put in its card field. */
export const TEST_CARD_NUMBERS = {
  Approved: "4242 4242 4242 4242",
  Declined: "4000 0000 0000 0002",
} as const;

/** The lab's switches, by the label a person clicks. */
export const LAB = {
  dropReply: "Drop the reply after commit",
  failBeforeCommit: "Fail before commit",
  slowProvider: "Slow provider (3 s)",
  stallBetweenHops: "Stall between the hops (4 s)",
  providerReplyLost: "The provider's reply is lost",
  providerTimeout: "Provider slow past the shop's timeout",
  providerUnavailable: "Provider unavailable (503)",
  naiveProviderCalls: "Naive provider calls (counter-example)",
  decline: "Decline the card",
  naiveClient: "Naive client (counter-example)",
  webhookTwice: "Webhook delivered twice",
  webhookFirst: "Provider replies after its webhook (3 s)",
} as const;

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/**
 * The shop as a user drives it, plus direct database access to check what the
 * UI claims. Each test runs in a browser context of its own, hence a session
 * of its own: its orders and charges are its own, and tests run in parallel.
 */
export class Shop {
  constructor(
    readonly page: Page,
    private readonly db: Db,
    private readonly testInfo: TestInfo,
    private readonly answers: ServerAnswers,
  ) {}

  /**
   * Proves that at least `count` requests with this key reached the server
   * (each got an answer), not only that a button held duplicates back, and
   * that every answer was `status`.
   */
  async expectServerAnswered(key: string, count: number, status = 200) {
    await expect.poll(() => this.answers.statuses(key).length).toBeGreaterThanOrEqual(count);
    expect(this.answers.statuses(key)).toEqual(this.answers.statuses(key).map(() => status));
  }

  /** The statuses of the server's answers to requests with this key, in order. */
  answerStatuses(key: string): number[] {
    return this.answers.statuses(key);
  }

  /**
   * Proves from the server's own record that requests with this key were
   * answered from the stored or shared outcome of an earlier one, for requests
   * whose answers the browser never saw (a reload cut them off).
   */
  async expectReplayedByServer(key: string) {
    await expect
      .poll(async () => (await this.db.idempotencyKey.findFirst({ where: { key } }))?.replayCount ?? 0, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(1);
  }

  /** Waits until the server holds this key in progress: the request reached it. */
  async expectKeyInProgress(key: string) {
    await expect
      .poll(async () => (await this.db.idempotencyKey.findFirst({ where: { key } }))?.state)
      .toBe("IN_PROGRESS");
  }

  /** The order's current payment key, whole (the page shows it short). */
  async paymentKey(page: Page = this.page): Promise<string> {
    return (await page.getByTestId("payment-key").getAttribute("data-value")) ?? "";
  }

  /** The provider's card field: a frame from the provider's origin, which only Playwright (not the page) can reach into. */
  cardField(page: Page = this.page) {
    return page.frameLocator("iframe.card-field");
  }

  /** Types a card into the provider's card field, as a person would (the expiry and code as given, or the test ones). */
  async typeCard(number: string, { expiry = "12 / 34", cvc = "123" } = {}, page: Page = this.page) {
    const field = this.cardField(page);
    await field.getByLabel("Card number").fill(number);
    await field.getByLabel("Expiry").fill(expiry);
    await field.getByLabel(/^(CVC|CID|CVV)$/).fill(cvc);
  }

  /** Picks one of the provider's test cards by its button, and waits until the field holds it. */
  async pickTestCard(name: "Approved" | "Declined", page: Page = this.page) {
    await page.getByRole("button", { name, exact: true }).click();
    await expect(this.cardField(page).getByLabel("Card number")).toHaveValue(TEST_CARD_NUMBERS[name]);
  }

  /** Submits the payment form twice in one tick, before React can disable the button: a double-click that wins the race. */
  async submitPaymentTwice(page: Page = this.page) {
    await page.getByTestId("pay-form").evaluate((form: HTMLFormElement) => {
      form.requestSubmit();
      form.requestSubmit();
    });
  }

  /** Puts the given products in the cart and places the order; returns the order id. */
  async placeOrder(quantities: Record<string, number>): Promise<string> {
    await this.page.goto("/");
    for (const [sku, quantity] of Object.entries(quantities)) {
      const card = this.page.locator(`[data-sku="${sku}"]`);
      for (let i = 0; i < quantity; i++) await card.getByRole("button", { name: /^Add one/ }).click();
      await expect(card.locator("output")).toHaveText(String(quantity));
    }
    await this.page.getByRole("button", { name: "Place order" }).click();
    await this.page.waitForURL(/\/orders\/ord_/);
    await expect(this.payButton()).toBeEnabled();
    return this.orderIdFromUrl();
  }

  orderIdFromUrl(page: Page = this.page): string {
    const match = /\/orders\/(ord_[A-Za-z0-9_-]+)/.exec(page.url());
    if (!match?.[1]) throw new Error(`not on an order page: ${page.url()}`);
    return match[1];
  }

  payButton(page: Page = this.page) {
    return page.getByRole("button", { name: /^(Pay|Finish payment)/ });
  }

  status(page: Page = this.page) {
    return page.getByTestId("payment-status");
  }

  async expectCharged(page: Page = this.page) {
    await expect(this.status(page)).toContainText("Charged");
  }

  /** Unfolds the lab's "All switches", where every switch and the grid's controls are. */
  async openAllSwitches() {
    const all = this.page.getByTestId("all-switches");
    if ((await all.getAttribute("open")) === null) await all.locator("summary").click();
    await expect(all).toHaveAttribute("open", "");
  }

  /** Places an order of one notebook and turns these lab switches on: its id. */
  async orderWith(...switches: string[]): Promise<string> {
    const orderId = await this.placeOrder({ notebook: 1 });
    for (const label of switches) await this.switchOn(label);
    return orderId;
  }

  /** Turns a lab switch on, as a person would, and waits until the server has it. */
  async switchOn(label: string) {
    const saved = this.page.waitForResponse((response) => response.url().includes("lab.setSwitches"));
    const box = this.page.getByLabel(label);
    if (!(await box.isVisible())) await this.openAllSwitches();
    await box.check();
    expect((await saved).ok()).toBe(true);
  }

  /** The timeline's tries: `data-outcome` says how each ended, `data-decision` the server's word. */
  tries(page: Page = this.page) {
    return page.locator(".lane");
  }
  /** Expects exactly these tries on the timeline, in order, each by how it ended or by the server's word. */
  async expectTries(...expected: Array<{ outcome?: string; decision?: string }>) {
    await expect(this.tries()).toHaveCount(expected.length);
    for (const [n, attributes] of expected.entries()) {
      for (const [name, value] of Object.entries(attributes))
        await expect(this.tries().nth(n)).toHaveAttribute(`data-${name}`, value);
    }
  }

  /**
   * Keeps a screenshot of the page as it is, at both widths the shop is
   * made for, in the test's report; and proves on the phone that nothing
   * scrolls sideways.
   */
  async capture(state: string, page: Page = this.page) {
    const wide = page.viewportSize() ?? DESKTOP;
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `${state}: nothing scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(
        viewport.width,
      );
      const path = this.testInfo.outputPath(`${slug(state)}-${viewport.width}.png`);
      await page.screenshot({ path, fullPage: true, animations: "disabled" });
      await this.testInfo.attach(`${state} (${viewport.width}×${viewport.height})`, {
        path,
        contentType: "image/png",
      });
    }
    await page.setViewportSize(wide);
  }

  /**
   * Checks the order's charges twice, on the ledger page and in the database,
   * and keeps screenshots of the ledger as the test's artifact.
   */
  /**
   * Checks the order's charges on the ledger page and in the database, and
   * reconciles them with the payment provider's own ledger: after every fault,
   * the provider charged exactly what the shop recorded (`disagreements`: the
   * counter-example's expected damage). Keeps a screenshot of the ledger.
   */
  async expectLedger(orderId: string, charges: number, { disagreements = 0 } = {}) {
    await this.page.goto("/ledger");
    const row = this.page.locator(`tr[data-order-summary="${orderId}"]`);
    await expect(row.getByTestId("charge-count")).toHaveText(String(charges));
    await expect(this.page.locator(`tr[data-charge-id][data-order-id="${orderId}"]`)).toHaveCount(charges);
    expect(await this.db.charge.count({ where: { orderId } })).toBe(charges);
    await expect(this.page.locator(`[data-reconciled-order="${orderId}"]`)).toHaveAttribute(
      "data-problems",
      String(disagreements),
    );
    await this.capture("ledger");
  }
}

/**
 * The answers the server sent to this test's run-once mutations, by key: every
 * tab of the test's browser context is watched.
 */
class ServerAnswers {
  readonly #statuses = new Map<string, number[]>();

  constructor(context: BrowserContext) {
    context.on("response", (response) => {
      const key = runOnceKeyOf(response.request());
      if (key) this.#statuses.set(key, [...this.statuses(key), response.status()]);
    });
  }

  statuses(key: string): number[] {
    return this.#statuses.get(key) ?? [];
  }
}

function runOnceKeyOf(request: Request): string | null {
  if (
    request.method() !== "POST" ||
    !/\/api\/trpc\/(payments\.charge|orders\.place|lab\.pitfallCharge)$/.test(request.url())
  ) {
    return null;
  }
  const body = request.postDataJSON() as { idempotencyKey?: string; submissionKey?: string } | null;
  return body?.idempotencyKey ?? body?.submissionKey ?? null;
}

/** The page at this address as the server sends it, with no script to bring it to life. */
export async function serverHtmlOf(context: BrowserContext, url: string): Promise<Page> {
  const serverHtml = await context.newPage();
  // Empty scripts and styles rather than failed loads, which the browser would log as console errors.
  await serverHtml.route("**/_next/static/chunks/**", (route) =>
    route.fulfill({
      body: "",
      contentType: route.request().url().endsWith(".css") ? "text/css" : "text/javascript",
    }),
  );
  await serverHtml.goto(url);
  return serverHtml;
}

/**
 * Console errors and uncaught exceptions of every page of the test's browser
 * context. Any the test did not declare with `expect()` fails the test.
 */
export class ConsoleErrors {
  readonly #seen: string[] = [];
  readonly #expected: RegExp[] = [];

  constructor(context: BrowserContext) {
    context.on("console", (message) => {
      if (message.type() === "error") this.#seen.push(`${message.text()} (${message.location().url})`);
    });
    context.on("weberror", (error) => this.#seen.push(`uncaught: ${error.error().message}`));
  }

  /** Declares errors this test causes on purpose (a lab 503, a refused 422): those matching do not fail it. */
  expect(...patterns: RegExp[]) {
    this.#expected.push(...patterns);
  }

  unexpected(): string[] {
    return this.#seen.filter((seen) => !this.#expected.some((pattern) => pattern.test(seen)));
  }
}

export const test = base.extend<
  { shop: Shop; consoleErrors: ConsoleErrors },
  { databaseUrl: string; db: Db; providerDb: ProviderDb }
>({
  shop: async ({ page, context, db }, use, testInfo) => {
    await use(new Shop(page, db, testInfo, new ServerAnswers(context)));
  },
  consoleErrors: [
    async ({ context }, use) => {
      const errors = new ConsoleErrors(context);
      await use(errors);
      expect(errors.unexpected(), "console errors and uncaught exceptions").toEqual([]);
    },
    { auto: true },
  ],
  // Set per project (playwright.config.ts): the database its server runs on.
  databaseUrl: ["", { scope: "worker", option: true }],
  db: [
    async ({ databaseUrl }, use) => {
      const db = createDb(resolveDatabaseUrl(databaseUrl));
      await use(db);
      await db.$disconnect();
    },
    { scope: "worker" },
  ],
  // The provider's own records, beside the shop's: the other side of what the page draws.
  providerDb: [
    async ({ databaseUrl }, use) => {
      const server = Object.values(E2E_SERVERS).find((s) => s.databaseUrl === databaseUrl)!;
      const providerDb = createProviderDb(resolveDatabaseUrl(server.providerDatabaseUrl));
      await use(providerDb);
      await providerDb.$disconnect();
    },
    { scope: "worker" },
  ],
});

export { expect };
