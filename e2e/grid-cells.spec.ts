import type { Page } from "@playwright/test";
import { LAB, expect, test } from "./fixtures";
import type { Shop } from "./fixtures";

/**
 * Every cell of the key state grid, reached from the order page: each test
 * drives the page to one cell and checks what the server decided (its own
 * account, drawn in the lanes figure), the status it answered, the grid's lit
 * cell, and the ledger.
 */

/** The cards the grid controls send: the card form's test card, and another one the provider approves. */
const CARDS = { same: "4242424242424242", different: "5555555555554444" } as const;

/** Sends the order's key once from the lab's grid controls and waits for the answer's status. */
async function send(page: Page, payload: "same" | "different"): Promise<number> {
  // Matched by its body: the browser can report a request after the server already holds its key.
  const sent = page.waitForRequest(
    (request) =>
      request.method() === "POST" &&
      request.url().endsWith("/api/trpc/payments.charge") &&
      (request.postDataJSON() as { cardNumber?: string }).cardNumber === CARDS[payload],
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

test("absent, same payload: the first request claims the key and executes", async ({ shop }) => {
  const orderId = await shop.placeOrder({ notebook: 1 });
  const key = await shop.paymentKey();
  await payOnce(shop);
  await shop.expectServerAnswered(key, 1);
  await expectLatest(shop, "absent-same", { decision: "executed", status: 200, requests: 1 });
  await shop.expectLedger(orderId, 1);
});

test("absent, different payload: a key released by a failure runs the new body, once", async ({
  shop,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 503/);
  const orderId = await shop.placeOrder({ notebook: 1 });
  const key = await shop.paymentKey();
  await shop.switchOn(LAB.failBeforeCommit);
  expect(await send(shop.page, "same")).toBe(503);
  expect(await send(shop.page, "different")).toBe(200);
  expect(shop.answerStatuses(key)).toEqual([503, 200]);
  await expectLatest(shop, "absent-different", { decision: "executed", status: 200, requests: 2 });
  await shop.expectLedger(orderId, 1);
});

/** The grid's one-click preset for an in-progress cell: it arms the slow provider and sends both requests. */
async function inProgressPreset(shop: Shop, payload: "same" | "different") {
  await shop.page.getByRole("button", { name: `In progress × ${payload} payload` }).click();
  await expect(shop.page.getByLabel(LAB.slowProvider)).toBeChecked();
  await expect(shop.page.getByTestId("grid-answers").locator("li")).toHaveCount(2);
}

test("in progress, same payload: the duplicate waits and shares the one charge", async ({ shop }) => {
  const orderId = await shop.placeOrder({ notebook: 1 });
  const key = await shop.paymentKey();
  await inProgressPreset(shop, "same");
  await shop.expectServerAnswered(key, 2);
  await expectLatest(shop, "in_progress-same", { decision: "coalesced", status: 200, requests: 2 });
  await shop.expectLedger(orderId, 1);
});

test("in progress, different payload: refused with 422 while the first runs", async ({
  shop,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 422/);
  const orderId = await shop.placeOrder({ notebook: 1 });
  const key = await shop.paymentKey();
  await inProgressPreset(shop, "different");
  expect(shop.answerStatuses(key)).toEqual([422, 200]);
  await expectLatest(shop, "in_progress-different", { decision: "mismatch", status: 422, requests: 2 });
  await shop.expectLedger(orderId, 1);
});

test("completed, same payload: the stored result is replayed, nothing charged", async ({ shop }) => {
  const orderId = await shop.placeOrder({ notebook: 1 });
  const key = await shop.paymentKey();
  await payOnce(shop);
  expect(await send(shop.page, "same")).toBe(200);
  await shop.expectServerAnswered(key, 2);
  await expectLatest(shop, "completed-same", { decision: "replayed", status: 200, requests: 2 });
  await shop.expectLedger(orderId, 1);
});

test("completed, different payload: refused with 422", async ({ shop, consoleErrors }) => {
  consoleErrors.expect(/status of 422/);
  const orderId = await shop.placeOrder({ notebook: 1 });
  const key = await shop.paymentKey();
  await payOnce(shop);
  expect(await send(shop.page, "different")).toBe(422);
  expect(shop.answerStatuses(key)).toEqual([200, 422]);
  await expectLatest(shop, "completed-different", { decision: "mismatch", status: 422, requests: 2 });
  await shop.expectLedger(orderId, 1);
});

for (const payload of ["same", "different"] as const) {
  test(`expired, ${payload} payload: the key runs again, and the paid order refuses a second charge`, async ({
    shop,
    consoleErrors,
  }) => {
    consoleErrors.expect(/status of 412/);
    const orderId = await shop.placeOrder({ notebook: 1 });
    const key = await shop.paymentKey();
    await payOnce(shop);
    await shop.page.getByRole("button", { name: "Age the key past its retention" }).click();
    await expect(shop.page.getByTestId("key-lifecycle").locator('[aria-current="step"]')).toHaveAttribute(
      "data-stage",
      "expired",
    );
    expect(await send(shop.page, payload)).toBe(412);
    expect(shop.answerStatuses(key)).toEqual([200, 412]);
    await expectLatest(shop, `expired-${payload}`, { decision: "refused", status: 412, requests: 2 });
    await shop.expectLedger(orderId, 1);
  });
}
