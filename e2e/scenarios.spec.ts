import type { Page } from "@playwright/test";
import { DEFAULT_RETRY_SETTINGS } from "retry-policy";
import { DESKTOP, PHONE } from "./environment";
import { LAB, expect, serverHtmlOf, test } from "./fixtures";
import { expectFigureAgrees } from "./figure-agreement";
import {
  choose,
  drawnDeliveries,
  eventsSentFor,
  happened,
  keep,
  scenarioTest,
  secondsOf,
} from "./scenario-test";

/**
 * The lab's guided scenarios, each driven as its "Do:" line says: the picker
 * sets the switches, the browser does the rest, and the picker's "What
 * happened" (computed from the server's account) and the ledger are checked,
 * and the figure, the status line and the server's account agree request by request.
 * Each scenario's final state is kept as a screenshot in test-results/scenarios/.
 */

test("every scenario's title is whole in the picker, at 1280 and 390 px", async ({ shop, page }) => {
  await shop.placeOrder({ notebook: 1 });
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const cut = await page.getByLabel("Try a scenario").evaluate((select: HTMLSelectElement) => {
      const style = getComputedStyle(select);
      const context = document.createElement("canvas").getContext("2d")!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      // The room the closed picker gives its chosen title: its width less its padding and its arrow.
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      return [...select.options].filter((o) => context.measureText(o.text).width > room).map((o) => o.text);
    });
    expect(cut, `cut off at ${viewport.width} px`).toEqual([]);
  }
});

test("the picker is disabled until React runs, as the lab's switches are", async ({
  shop,
  page,
  context,
}) => {
  await shop.placeOrder({ notebook: 1 });
  const serverHtml = await serverHtmlOf(context, page.url());
  await expect(serverHtml.getByLabel("Try a scenario")).toBeDisabled();
  await serverHtml.close();
  await expect(page.getByLabel("Try a scenario")).toBeEnabled();
});

scenarioTest(
  "the chosen scenario lives in the address: a reload keeps its steps, and a second tab opens with it",
  { scenario: "two-tabs" },
  async ({ page, orderId }) => {
    await expect(page).toHaveURL(/\?scenario=two-tabs$/);
    await page.reload();
    await expect(page.getByLabel("Try a scenario")).toHaveValue("two-tabs");
    await expect(page.getByTestId("scenario-to-do")).toContainText("second tab");
    await expect(page.getByRole("link", { name: "Open this order in a second tab" })).toHaveAttribute(
      "href",
      `/orders/${orderId}?scenario=two-tabs`,
    );
  },
);

test("lost reply: the retry with the same key gets the stored result, and the other switches are turned off", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/net::ERR_INCOMPLETE_CHUNKED_ENCODING/);
  const orderId = await shop.placeOrder({ notebook: 1 });
  const key = await shop.paymentKey();
  // A switch left on from before: choosing a scenario turns it off.
  await shop.switchOn(LAB.decline);
  await choose(page, "lost-reply");
  await expect(page.getByLabel(LAB.dropReply)).toBeChecked();
  await expect(page.getByLabel(LAB.decline)).not.toBeChecked();
  await expect(happened(page)).toHaveCount(0);

  await shop.payButton().click();
  await shop.expectCharged();
  await shop.expectServerAnswered(key, 2);
  await expect(happened(page)).toHaveText(
    "What happened: 2 requests reached the server; 1 charge. #1 executed: charged the card, and its reply was lost. #2 replayed the stored result: charged nothing.",
  );
  await expectFigureAgrees(page, orderId);
  // One clock: the figure's #2 arrived between the tab's sending of try 2 and the answer it got (give or take the
  // time the account's read took, by which the page knows the server's clock: a loaded machine's 0.25 s).
  const figure = secondsOf((await page.locator('[data-server-try="2"] .lanes-caption').textContent()) ?? "");
  const lane = shop.tries().nth(1);
  const sent = secondsOf((await lane.locator(".lane-head").textContent()) ?? "");
  const took = Number(/· ([\d.]+) s/.exec((await lane.locator(".lane-outcome").textContent()) ?? "")?.[1]);
  expect(
    figure,
    `#2 at +${figure} s, try 2 sent at +${sent} s and answered ${took} s later`,
  ).toBeGreaterThanOrEqual(sent - 0.25);
  expect(figure).toBeLessThanOrEqual(sent + took + 0.25);
  await keep(page, "lost-reply", orderId);
  await shop.expectLedger(orderId, 1);
});

scenarioTest(
  "double-click: with Pay's own guard off, a real double-click sends two requests; one executes, the other waits and shares its charge",
  {
    scenario: "double-click",
    happened:
      "What happened: 2 requests reached the server; 1 charge. #1 executed: charged the card. #2 waited for #1 and shared its result.",
    charges: 1,
  },
  async ({ shop, page, orderId, key }) => {
    await expect(page.getByLabel(LAB.slowProvider)).toBeChecked();
    await expect(page.getByTestId("pay-unguarded")).toBeVisible();
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/trpc/payments.charge")) {
        sent.push(request.postDataJSON().idempotencyKey);
      }
    });

    await shop.payButton().dblclick();
    await shop.expectCharged();
    expect(sent).toEqual([key, key]);
    await shop.expectServerAnswered(key, 2);
    const { requests } = await expectFigureAgrees(page, orderId);
    expect(requests.map((request) => request.decision)).toEqual(["executed", "coalesced"]);
  },
);

test("two tabs: the later tab's request waits for the one in flight, one charge shown in both", async ({
  shop,
  page,
  context,
}) => {
  const orderId = await shop.placeOrder({ "ceramic-mug": 1 });
  const key = await shop.paymentKey();
  await choose(page, "two-tabs");
  const opened = context.waitForEvent("page");
  await page.getByRole("link", { name: "Open this order in a second tab" }).click();
  const second = await opened;
  await expect(shop.payButton(second)).toBeEnabled();

  await shop.payButton().click();
  await expect(shop.status()).toContainText("Processing");
  await shop.payButton(second).click();
  await shop.expectCharged();
  await shop.expectCharged(second);
  await shop.expectServerAnswered(key, 2);
  await expect(happened(page)).toHaveText(
    "What happened: 2 requests reached the server; 1 charge. #1 executed: charged the card. #2 waited for #1 and shared its result.",
  );
  await expectFigureAgrees(page, orderId);
  await expectFigureAgrees(second, orderId);
  await keep(page, "two-tabs", orderId);
  await shop.expectLedger(orderId, 1);
});

// Asserted up to the stall: the e2e server is shared by every test, so it is not killed here.
scenarioTest(
  "crash mid-charge: the picker counts down the stall and names the kill command, once; left alive, one charge",
  {
    scenario: "crash-mid-charge",
    items: { "desk-plant": 1 },
    happened: "What happened: 1 request reached the server; 1 charge. #1 executed: charged the card.",
    charges: 1,
  },
  async ({ shop, page }) => {
    await expect(page.getByLabel(LAB.stallBetweenHops)).toBeChecked();
    const guide = page.getByTestId("scenario-picker").getByTestId("stall-guide");
    // The server names its own pid (e2e/crash-kill.spec.ts runs the command, on a server of its own).
    await expect(guide.locator("code.command")).toHaveText(/^kill -9 \d+$/);
    // The scenario's guide stands in for the one under the switch: one countdown on the page.
    await expect(page.getByTestId("stall-guide")).toHaveCount(1);

    await shop.payButton().click();
    await expect(guide.getByRole("timer")).toContainText("s left to kill the server");
    await shop.expectCharged();
  },
);

test("slow card: the shop's and the browser's requests time out, and their retries get the one charge", async ({
  shop,
  page,
}) => {
  test.slow();
  const orderId = await shop.placeOrder({ backpack: 1 });
  const key = await shop.paymentKey();
  await choose(page, "slow-card");
  await expect(page.getByLabel(LAB.providerTimeout)).toBeChecked();

  await shop.payButton().click();
  await shop.expectCharged();
  // The browser's first request timed out (no answer); its retry got the one charge.
  await shop.expectServerAnswered(key, 1);
  await expect(happened(page)).toHaveText(
    /^What happened: 2 requests reached the server; 1 charge\. #1 was left by its client; its execution went on and charged the card\. #2 (waited for #1 and shared its result|replayed the stored result: charged nothing)\.$/,
  );
  const account = await expectFigureAgrees(page, orderId);
  // The second hop: the shop's first call timed out, and its retry sent the same derived key.
  const charges = account.providerCalls.filter((call) => call.purpose === "charge");
  expect(charges.map((call) => [call.key, call.try, call.noReply])).toEqual([
    [`${key}/charge`, 1, true],
    [`${key}/charge`, 2, false],
  ]);
  await expect(page.getByTestId("provider-summary")).toHaveText(
    /^2 calls under 1 key; 1 charge made\. Call 1 \(charge\) charged the card; its reply never reached the shop \(call 2's answer shows it\)\. Call 2 \(charge\) (waited for the call in flight and shared its result|replayed the stored result: charged nothing)\.$/,
  );
  await keep(page, "slow-card", orderId);
  // The reconciliation proves the provider charged once for the shop's two calls.
  await shop.expectLedger(orderId, 1);
});

scenarioTest(
  "a webhook delivered twice: the first delivery finds the payment recorded, the second gets the event's stored answer",
  {
    scenario: "webhook-twice",
    happened:
      /^What happened: 1 request reached the server; 1 charge\. #1 executed: charged the card\. Then the provider's webhook: 2 deliveries of 1 event\. Delivery 1 .* Delivery 2 .*: recorded nothing\.$/,
    charges: 1,
  },
  async ({ shop, page, orderId, providerDb }) => {
    await expect(page.getByLabel(LAB.webhookTwice)).toBeChecked();
    await shop.payButton().click();
    await shop.expectCharged();
    // Delivery 1 comes a moment after the provider's reply: it finds the payment recorded (or, a moment sooner, #1 holding its key).
    await expect(page.getByTestId("webhook-summary")).toHaveText(
      /^2 deliveries of 1 event\. Delivery 1 \(payment_intent\.succeeded\) (?:ran under the event's id and found the payment already recorded by #1: recorded nothing|waited for #1 holding the payment's key, and shared its record: recorded nothing itself)\. Delivery 2 \(payment_intent\.succeeded\) replayed the stored answer of delivery 1 \("(already recorded|shared)"\): recorded nothing\.$/,
      { timeout: 20_000 },
    );
    // Each drawn delivery is one the provider sent: its one event, sent twice, both answered 2xx.
    const [event, ...more] = await eventsSentFor(providerDb, orderId);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      type: "payment_intent.succeeded",
      attempts: 2,
      deliveredAt: expect.any(Date),
    });
    expect(await drawnDeliveries(page)).toEqual([
      [event!.id, "200"],
      [event!.id, "200"],
    ]);
  },
);

scenarioTest(
  "the webhook before the shop's reply: it finds the payment's key held by the request, waits, and shares its record",
  {
    scenario: "webhook-first",
    happened:
      /^What happened: 1 request reached the server; 1 charge\. #1 executed: charged the card\. Then the provider's webhook: (1 delivery|2 deliveries) of 1 event\. Delivery 1 .*shared its record: recorded nothing itself\./,
    charges: 1,
  },
  async ({ shop, page, orderId, providerDb }) => {
    await expect(page.getByLabel(LAB.webhookFirst)).toBeChecked();
    await shop.payButton().click();
    await shop.expectCharged();
    await expect(page.getByTestId("webhook-summary")).toHaveText(
      /^(1 delivery|2 deliveries) of 1 event\. Delivery 1 \(payment_intent\.succeeded\) waited for #1 holding the payment's key, and shared its record: recorded nothing itself\./,
    );
    // The records say it came first: the delivery reached the shop while #1 still waited for the provider's reply.
    const account = await expectFigureAgrees(page, orderId);
    const [request] = account.requests;
    const [delivery] = account.webhookDeliveries;
    expect(Date.parse(delivery!.at)).toBeLessThan(Date.parse(request!.at) + request!.durationMs);
    const [event] = await eventsSentFor(providerDb, orderId);
    expect(delivery!.event).toBe(event!.id);
  },
);

scenarioTest(
  "decline, then another card: nothing charged for the decline, one charge under the new key",
  {
    scenario: "decline-then-card",
    refusals: /status of 402/,
    happened:
      /^What happened: 3 requests reached the server under 2 keys; 1 charge\. #1 executed: the card was declined; the decline is stored as final\. #2 executed: charged the card\. #3 (waited for #2 and shared its result|replayed the stored result: charged nothing)\.$/,
    charges: 1,
  },
  async ({ shop, page }) => {
    // "Pick the test card Declined": one click fills its number.
    await shop.pickTestCard("Declined");
    await shop.payButton().click();
    await expect(shop.status()).toContainText("Declined");
    await expect(happened(page)).toHaveText(
      "What happened: 1 request reached the server; 0 charges. #1 executed: the card was declined; the decline is stored as final.",
    );

    const nextKey = await shop.paymentKey();
    await shop.pickTestCard("Approved");
    await shop.submitPaymentTwice();
    await shop.expectCharged();
    await shop.expectServerAnswered(nextKey, 2);
    // The second submit lands during the first (shares it) or after it (its replay): either way, no charge.
  },
);

scenarioTest(
  "key reuse: the same key with another amount is refused with 422, and nothing more is charged",
  {
    scenario: "key-reuse",
    items: { backpack: 1 },
    refusals: /status of 422/,
    happened:
      "What happened: 2 requests reached the server; 1 charge. #1 executed: charged the card. #2 was refused with 422: the key holds another body.",
    charges: 1,
  },
  async ({ shop, page, key }) => {
    await shop.payButton().click();
    await shop.expectCharged();
    await page.getByRole("button", { name: "Reuse this order's key with a different amount" }).click();
    await expect(page.getByTestId("reuse-answer")).toContainText("Rejected with 422");
    expect(shop.answerStatuses(key)).toEqual([200, 422]);
  },
);

scenarioTest(
  "keys per try (pitfall): the naive client's retry with a new key charges again",
  {
    scenario: "keys-per-try",
    items: { "desk-plant": 1 },
    refusals: /net::ERR_INCOMPLETE_CHUNKED_ENCODING/,
    happened:
      "What happened: 2 requests reached the server under 2 keys; 2 charges. #1 (naive, a key of its own) ran without run-once: charged the card, and its reply was lost. #2 (naive, a key of its own) ran without run-once: charged the card.",
    charges: 2,
  },
  async ({ page }) => {
    await expect(page.getByLabel(LAB.naiveClient)).toBeChecked();
    await expect(page.getByLabel(LAB.dropReply)).toBeChecked();

    await page.getByRole("button", { name: /^Pay naively/ }).click();
    await expect(page.getByTestId("overcharge")).toContainText(
      "Charged twice: $48.00 taken for an order of $24.00: each charge carries a key of its own (#1 and #2), so each looked like a new payment.",
    );
  },
);

/** Pay once the page pays in pitfall mode: a click before the switches reached it would pay the production way. */
const payInPitfallMode = (page: Page) => page.getByRole("button", { name: /^Pay in pitfall mode/ }).click();

scenarioTest(
  "partial commit (pitfall): the key released after the write, and the retry charges again",
  {
    scenario: "partial-commit",
    refusals: /status of 503/,
    happened:
      "What happened: 2 requests reached the server; 2 charges. #1 charged the card, then failed (HTTP 503) before completing its key, and released it. #2 executed: charged the card.",
    charges: 2,
  },
  async ({ shop, page, key }) => {
    await expect(page.getByLabel("Break: release the key after a partial commit")).toBeChecked();

    await payInPitfallMode(page);
    await expect(page.getByTestId("overcharge")).toContainText(
      "#1 charged the card, then released its key before completing it, so a retry under the same key ran again.",
    );
    await expect.poll(() => shop.answerStatuses(key)).toEqual([503, 200]);
  },
);

scenarioTest(
  "keys in memory (pitfall), on one instance: the retry meets the key in the same memory, one charge",
  {
    scenario: "memory-store",
    refusals: /net::ERR_INCOMPLETE_CHUNKED_ENCODING/,
    happened:
      "What happened: 2 requests reached the server; 1 charge. #1 executed: charged the card, and its reply was lost. #2 replayed the stored result: charged nothing.",
    charges: 1,
  },
  async ({ shop, page, key }) => {
    await expect(page.getByTestId("pitfall-needs-instances")).toContainText("INSTANCES=2 npm run demo");

    await payInPitfallMode(page);
    await shop.expectCharged();
    await shop.expectServerAnswered(key, 2);
  },
);

scenarioTest(
  "cached errors (pitfall): the provider's one 503 is stored, every retry replays it, nothing is charged",
  { scenario: "cached-error", refusals: /status of 503/, charges: 0 },
  async ({ shop, page, key }) => {
    await expect(page.getByLabel("Break: cache error responses forever")).toBeChecked();

    await payInPitfallMode(page);
    const tries = DEFAULT_RETRY_SETTINGS.maxTries;
    await expect.poll(() => shop.answerStatuses(key)).toEqual(Array.from({ length: tries }, () => 503));
    const replays = Array.from(
      { length: tries - 1 },
      (_, i) => ` #${i + 2} replayed the stored failure (HTTP 503): charged nothing.`,
    );
    await expect(happened(page)).toHaveText(
      `What happened: ${tries} requests reached the server; 0 charges. #1 executed: failed (HTTP 503), and the failure was stored as the key's outcome.${replays.join("")}`,
    );
    // The page tells the stored failure for what it is, not as a missing answer.
    await expect(shop.status()).toContainText("The server stored a failure as this key's outcome");
    await expect(shop.tries().nth(1)).toContainText("a stored failure, replayed");
  },
);

test("unbounded wait (pitfall): a double-click's duplicate of a stuck execution waits without an answer", async ({
  shop,
  page,
}) => {
  test.slow();
  const orderId = await shop.placeOrder({ notebook: 1 });
  await choose(page, "unbounded-wait");
  const key = await shop.paymentKey();
  await page.getByRole("button", { name: /^Pay in pitfall mode/ }).dblclick();
  // In pitfall mode the tab does not time out by itself: the duplicate hangs until the stuck execution ends, never told 409.
  await expect(shop.status()).toContainText("Charged", { timeout: 60_000 });
  await expect(happened(page)).toHaveText(
    "What happened: 2 requests reached the server; 1 charge. #1 executed: charged the card. #2 waited for #1 and shared its result.",
  );
  await expect(happened(page)).not.toContainText("409");
  expect(shop.answerStatuses(key)).not.toContain(409);
  await expectFigureAgrees(page, orderId);
  await keep(page, "unbounded-wait", orderId);
  await shop.expectLedger(orderId, 1);
});
