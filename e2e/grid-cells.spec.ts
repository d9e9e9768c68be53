import type { Page } from "@playwright/test";
import { LAB, expect, test } from "./fixtures";
import type { Shop } from "./fixtures";

/**
 * Every cell of the key state grid, reached from the order page: each test
 * drives the page to one cell and checks what the server decided (its own
 * account, drawn in the lanes figure), the status it answered, the grid's lit
 * cell, and the ledger.
 */

/** The amounts the grid controls send: the order's (a notebook, $12.00), and $1.00 more (the payment method is not fingerprinted). */
const AMOUNTS = { same: 1200, different: 1300 } as const;

/** Sends the order's key once from the lab's grid controls and waits for the answer's status. */
async function send(page: Page, payload: "same" | "different"): Promise<number> {
  // Matched by its body: the browser can report a request after the server already holds its key.
  const sent = page.waitForRequest(
    (request) =>
      request.method() === "POST" &&
      request.url().endsWith("/api/trpc/payments.charge") &&
      (request.postDataJSON() as { amountCents?: number }).amountCents === AMOUNTS[payload],
  );
  await page
    .getByRole("button", { name: `Send ${payload === "same" ? "the same" : "a different"} payload` })
    .click();
  // This request's own answer, not the first answer of any request in flight.
  const answer = await (await sent).response();
  if (!answer) throw new Error("the request got no answer");
  return answer.status();
}

/** The latest request in the server's account, and the grid cell lit for it. */
async function expectLatest(
  shop: Shop,
  cell: string,
  { decision, status, requests }: { decision: string; status: number; requests: number },
) {
  const rows = shop.page.getByTestId("server-lanes").locator(".lanes-row");
  await expect(rows).toHaveCount(requests);
  await expect(rows.last()).toHaveAttribute("data-decision", decision);
  await expect(rows.last()).toHaveAttribute("data-status", String(status));
  await expect(shop.page.locator(`[data-cell="${cell}"]`)).toHaveAttribute("data-latest", "true");
  await expect(shop.page.locator('[data-latest="true"]')).toHaveCount(1);
  await shop.capture(`grid ${cell}`);
}

async function payOnce(shop: Shop) {
  await shop.payButton().click();
  await shop.expectCharged();
}

/** The grid's one-click preset for an in-progress cell: it arms the slow provider and sends both requests. */
async function inProgressPreset(shop: Shop, payload: "same" | "different") {
  await shop.page.getByRole("button", { name: `In progress × ${payload} payload` }).click();
  await expect(shop.page.getByLabel(LAB.slowProvider)).toBeChecked();
  await expect(shop.page.getByTestId("grid-answers").locator("li")).toHaveCount(2);
}

/** A cell, how the page reaches it, and what the server answers there: the last answer is the cell's. */
interface Cell {
  cell: string;
  title: string;
  reach: (shop: Shop) => Promise<void>;
  statuses: number[];
  decision: string;
  /** The latest request's status, where it is not the last answer (a refusal answered before the first ends). */
  status?: number;
}

/** The error status a cell's refusal makes the browser log, which the test expects. */
const refusal = (statuses: number[]) => statuses.find((status) => status >= 400);

const CELLS: Cell[] = [
  {
    cell: "absent-same",
    title: "absent, same payload: the first request claims the key and executes",
    reach: payOnce,
    statuses: [200],
    decision: "executed",
  },
  {
    cell: "absent-different",
    title: "absent, different payload: a key released by a refusal runs the new body, once",
    reach: async (shop) => {
      // Not the order's amount: refused before any write, and the key freed.
      expect(await send(shop.page, "different")).toBe(400);
      expect(await send(shop.page, "same")).toBe(200);
    },
    statuses: [400, 200],
    decision: "executed",
  },
  {
    cell: "in_progress-same",
    title: "in progress, same payload: the duplicate waits and shares the one charge",
    reach: (shop) => inProgressPreset(shop, "same"),
    statuses: [200, 200],
    decision: "coalesced",
  },
  {
    cell: "in_progress-different",
    title: "in progress, different payload: refused with 422 while the first runs",
    reach: (shop) => inProgressPreset(shop, "different"),
    statuses: [422, 200],
    decision: "mismatch",
    status: 422,
  },
  {
    cell: "completed-same",
    title: "completed, same payload: the stored result is replayed, nothing charged",
    reach: async (shop) => {
      await payOnce(shop);
      expect(await send(shop.page, "same")).toBe(200);
    },
    statuses: [200, 200],
    decision: "replayed",
  },
  {
    cell: "completed-different",
    title: "completed, different payload: refused with 422",
    reach: async (shop) => {
      await payOnce(shop);
      expect(await send(shop.page, "different")).toBe(422);
    },
    statuses: [200, 422],
    decision: "mismatch",
  },
  ...(["same", "different"] as const).map((payload) => ({
    cell: `expired-${payload}`,
    title: `expired, ${payload} payload: the key runs again, and the paid order refuses a second charge`,
    reach: async (shop: Shop) => {
      await payOnce(shop);
      await shop.page.getByRole("button", { name: "Age the key past its retention" }).click();
      await expect(shop.page.getByTestId("key-lifecycle").locator('[aria-current="step"]')).toHaveAttribute(
        "data-stage",
        "expired",
      );
      expect(await send(shop.page, payload)).toBe(412);
    },
    statuses: [200, 412],
    decision: "refused",
  })),
];

for (const { cell, title, reach, statuses, decision, status = statuses.at(-1)! } of CELLS) {
  test(title, async ({ shop, consoleErrors }) => {
    const refused = refusal(statuses);
    if (refused) consoleErrors.expect(new RegExp(`status of ${refused}`));
    const orderId = await shop.placeOrder({ notebook: 1 });
    const key = await shop.paymentKey();
    await shop.openAllSwitches();
    await reach(shop);
    await expect.poll(() => shop.answerStatuses(key)).toEqual(statuses);
    await expectLatest(shop, cell, { decision, status, requests: statuses.length });
    await shop.expectLedger(orderId, 1);
  });
}
