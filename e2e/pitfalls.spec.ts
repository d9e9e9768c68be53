import { DEFAULT_RETRY_SETTINGS } from "retry-policy";
import { DEFAULT_RUN_ONCE_SETTINGS } from "run-once";
import { LAB, expect, test } from "./fixtures";
import type { Page } from "@playwright/test";
import type { Shop } from "./fixtures";

/** The lab's "Pitfalls of the guide" switches, by the label a person clicks. */
const PITFALLS = {
  mode: "Pitfall mode: only the key guards",
  failAfterWrite: "Fail after the write (publishing an event)",
  stuckExecution: "Stuck execution (20 s)",
  partialCommit: "Break: release the key after a partial commit",
  memoryStore: "Break: keys in each instance's memory",
  keysPerTry: "Break: a new key per try",
  cachedError: "Break: cache error responses forever",
  unboundedWait: "Break: duplicates wait without a bound",
} as const;

/** Time for a duplicate's answer beyond the wait bound: a loaded machine's request, not a second bound. */
const MARGIN_MS = 2_000;

/** Pay once the page pays in pitfall mode: a click before the switch reached it would pay the production way. */
const payInPitfallMode = (page: Page) => page.getByRole("button", { name: /^Pay in pitfall mode/ }).click();

test.describe("releasing the key after a partial commit", () => {
  test("broken: publishing fails after the write, the key is released, and the retry charges again", async ({
    shop,
    page,
    consoleErrors,
  }) => {
    consoleErrors.expect(/status of 503/);
    const orderId = await shop.orderWith(PITFALLS.partialCommit);
    await expect(page.getByTestId("pitfall-fail-after-write-state")).toHaveText("armed for the next try");
    await payInPitfallMode(page);

    await expect(page.getByTestId("overcharge")).toContainText("Charged twice");
    // Under two charges of one key, the page's footer does not promise "at most once per key".
    await expect(page.locator(".site-footer")).not.toContainText(
      "Every payment is charged at most once per key",
    );
    await shop.expectTries({ outcome: "unavailable" }, { decision: "executed" });
    // The server's own account: the first run released its key though its charge was written; the retry ran again.
    const rows = page.getByTestId("server-lanes").locator(".lanes-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toHaveAttribute("data-decision", "released");
    await expect(rows.nth(0)).toHaveAttribute("data-status", "503");
    await expect(rows.nth(1)).toHaveAttribute("data-decision", "executed");
    // The one-shot fault says which try it broke.
    await expect(page.getByTestId("pitfall-fail-after-write-state")).toHaveText("spent on try 1");
    await shop.capture("pitfall partial commit, charged twice");
    await shop.expectLedger(orderId, 2);
  });

  test("kept: the same failure after the write cannot release a key completed with it", async ({
    shop,
    page,
  }) => {
    const orderId = await shop.orderWith(PITFALLS.mode, PITFALLS.failAfterWrite);
    await payInPitfallMode(page);

    await expect(shop.status()).toContainText("Paid.");
    await shop.expectTries({ decision: "executed" });
    await shop.expectLedger(orderId, 1);
  });
});

test("in-memory store: on one instance the switch says it needs two, and honestly shows no damage", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/net::ERR_INCOMPLETE_CHUNKED_ENCODING/);
  // The damage needs two instances behind one address: server/cluster/pitfall-memory-store.test.ts.
  const orderId = await shop.orderWith(PITFALLS.memoryStore);
  await expect(page.getByTestId("pitfall-needs-instances")).toContainText("INSTANCES=2 npm run demo");
  await payInPitfallMode(page);

  await expect(shop.status()).toContainText("Paid.");
  await expect(shop.tries().nth(1)).toHaveAttribute("data-decision", "replayed");
  await shop.expectLedger(orderId, 1);
});

test.describe("keys generated per try", () => {
  test("broken: the naive client's retry carries a new key, and is a second payment", async ({
    shop,
    page,
    consoleErrors,
  }) => {
    consoleErrors.expect(/net::ERR_INCOMPLETE_CHUNKED_ENCODING/);
    const orderId = await shop.orderWith(PITFALLS.keysPerTry);
    await expect(page.getByLabel(LAB.naiveClient)).toBeChecked();
    await page.getByRole("button", { name: /^Pay naively/ }).click();

    await expect(page.getByTestId("overcharge")).toContainText("Charged twice");
    await shop.expectLedger(orderId, 2);
  });

  test("kept: the order's key on every try, and the retry after the lost reply is replayed, not charged again", async ({
    shop,
    consoleErrors,
  }) => {
    consoleErrors.expect(/net::ERR_INCOMPLETE_CHUNKED_ENCODING/);
    const orderId = await shop.orderWith(LAB.dropReply);
    const paymentKey = await shop.paymentKey();

    await shop.payButton().click();
    await shop.expectCharged();

    // Try 1 committed but its reply was lost; try 2 got the stored result.
    await shop.expectTries({ outcome: "network_error" }, { decision: "replayed" });
    await shop.expectServerAnswered(paymentKey, 2);

    // The server's own account, drawn as the guide's lanes: the charge whose reply was lost, then the replay.
    const rows = shop.page.getByTestId("server-lanes").locator(".lanes-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toHaveAttribute("data-decision", "executed");
    await expect(rows.nth(0)).toHaveAttribute("data-reply-lost", "true");
    await expect(rows.nth(1)).toHaveAttribute("data-decision", "replayed");
    await expect(rows.nth(1)).toContainText("No reply reached the client");
    // The after-the-fact summary, computed from the server's account and the ledger.
    await expect(shop.page.getByTestId("account-summary")).toHaveText(
      "2 requests reached the server; 1 charge. #1 executed: charged the card, and its reply was lost. #2 replayed the stored result: charged nothing.",
    );
    await rows.nth(1).locator("summary").click();
    await expect(rows.nth(1).getByTestId("response-headers")).toContainText("Idempotent-Replayed: true");
    await expect(rows.nth(1).getByTestId("response-headers")).toContainText("Idempotency-Decision: replayed");
    await expect(shop.page.getByTestId("key-lifecycle").locator('[aria-current="step"]')).toHaveAttribute(
      "data-stage",
      "completed",
    );
    await expect(shop.page.locator('[data-cell="completed-same"]')).toHaveAttribute("data-latest", "true");
    await shop.capture("lost reply, replayed");
    await shop.expectLedger(orderId, 1);
  });
});

test.describe("caching error responses forever", () => {
  test("broken: the provider's one 503 is stored, every retry replays it, and nothing is ever charged", async ({
    shop,
    page,
    db,
    consoleErrors,
  }) => {
    consoleErrors.expect(/status of 503/);
    const orderId = await shop.orderWith(PITFALLS.cachedError);
    await payInPitfallMode(page);

    const tries = shop.tries();
    await expect(tries).toHaveCount(DEFAULT_RETRY_SETTINGS.maxTries);
    await expect(tries.nth(0)).toHaveAttribute("data-decision", "executed");
    for (let n = 1; n < DEFAULT_RETRY_SETTINGS.maxTries; n++) {
      await expect(tries.nth(n)).toHaveAttribute("data-outcome", "unavailable");
      await expect(tries.nth(n)).toHaveAttribute("data-decision", "replayed");
    }
    await expect(shop.status()).not.toContainText("Paid.");
    expect(await db.charge.count({ where: { orderId } })).toBe(0);
    expect((await db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("PENDING");
  });

  test("kept: the 503 is not stored, and the retry charges once", async ({ shop, page, consoleErrors }) => {
    consoleErrors.expect(/status of 503/);
    const orderId = await shop.orderWith(PITFALLS.mode, LAB.providerUnavailable);
    await payInPitfallMode(page);

    await expect(shop.status()).toContainText("Paid.");
    await shop.expectTries({ outcome: "unavailable" }, { decision: "executed" });
    await shop.expectLedger(orderId, 1);
  });
});

test.describe("timeouts shorter than execution", () => {
  // The stuck execution holds its key for 20 s; each test waits for it to end.
  test.describe.configure({ timeout: 90_000 });

  /** Sends the stuck first request, then its duplicate: the duplicate's answer (null: none within the bound). */
  async function duplicateOfStuckExecution(shop: Shop, orderId: string) {
    const paymentKey = await shop.paymentKey();
    const order = await shop.page.request.get(
      `/api/trpc/orders.get?input=${encodeURIComponent(JSON.stringify({ orderId }))}`,
    );
    const { totalCents } = ((await order.json()) as { result: { data: { totalCents: number } } }).result.data;
    const body = {
      orderId,
      amountCents: totalCents,
      idempotencyKey: paymentKey,
      paymentMethodId: "pm_card_visa",
    };
    const stuck = shop.page.request.post("/api/trpc/lab.pitfallCharge", { data: body, timeout: 60_000 });
    await shop.expectKeyInProgress(paymentKey);
    const startedAt = Date.now();
    const duplicate = await shop.page.request
      .post("/api/trpc/lab.pitfallCharge", {
        data: body,
        timeout: DEFAULT_RUN_ONCE_SETTINGS.waitMs + MARGIN_MS,
      })
      .catch(() => null);
    const waitedMs = Date.now() - startedAt;
    return { duplicate, waitedMs, first: await stuck };
  }

  test("broken: a duplicate of a stuck execution gets no answer within the bound, no 409", async ({
    shop,
  }) => {
    const orderId = await shop.orderWith(PITFALLS.unboundedWait);

    const { duplicate, waitedMs, first } = await duplicateOfStuckExecution(shop, orderId);
    expect(duplicate).toBeNull();
    expect(waitedMs).toBeGreaterThanOrEqual(DEFAULT_RUN_ONCE_SETTINGS.waitMs + MARGIN_MS);
    expect(first.status()).toBe(200);
  });

  test("broken, as its lesson runs: a double-click's duplicate hangs past the bound, clocked, with no 409", async ({
    shop,
    page,
  }) => {
    // The stuck execution's 20 s, then the screenshots and the ledger.
    test.slow();
    const orderId = await shop.placeOrder({ notebook: 1 });
    const key = await shop.paymentKey();
    const saved = page.waitForResponse((response) => response.url().includes("lab.setSwitches"));
    await page.getByLabel("Try a scenario").selectOption("unbounded-wait");
    expect((await saved).ok()).toBe(true);
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/trpc/lab.pitfallCharge"))
        sent.push((request.postDataJSON() as { idempotencyKey: string }).idempotencyKey);
    });

    // "Do:" followed literally: a double-click on Pay in pitfall mode, whose own guard is off for this lesson.
    await page.getByRole("button", { name: /^Pay in pitfall mode/ }).dblclick();
    await expect.poll(() => sent).toEqual([key, key]);

    // The hang, against its bound: past 5 s the duplicate has no answer, and the page says what the tab does.
    const clock = page.getByTestId("wait-clock");
    await expect(clock).toHaveAttribute("data-state", "waiting");
    await expect(clock).toContainText(`past the ${DEFAULT_RUN_ONCE_SETTINGS.waitMs / 1000} s bound`);
    await expect(clock).toContainText("only the server ends the wait");
    expect(shop.answerStatuses(key)).toEqual([]);

    // The stuck execution ends; the duplicate shares its charge, never told 409 nor cut off by its tab.
    await expect(clock).toHaveAttribute("data-state", "answered", { timeout: 30_000 });
    await expect(clock).toContainText("shared its result, with no 409");
    expect(Number(await clock.getAttribute("data-waited-ms"))).toBeGreaterThan(
      DEFAULT_RUN_ONCE_SETTINGS.waitMs + MARGIN_MS,
    );
    await shop.expectCharged();
    await shop.expectServerAnswered(key, 2);
    await shop.capture("unbounded wait, the duplicate answered after the stuck execution");
    await shop.expectLedger(orderId, 1);
  });

  test("kept: the duplicate gets 409 with Retry-After once the bound runs out", async ({ shop }) => {
    const orderId = await shop.orderWith(PITFALLS.mode, PITFALLS.stuckExecution);

    const { duplicate, waitedMs, first } = await duplicateOfStuckExecution(shop, orderId);
    expect(duplicate?.status()).toBe(409);
    expect(duplicate?.headers()["retry-after"]).toMatch(/^\d+$/);
    expect(waitedMs).toBeGreaterThanOrEqual(DEFAULT_RUN_ONCE_SETTINGS.waitMs - 500);
    expect(first.status()).toBe(200);
  });
});

test("each pitfall links to the line of the shop that keeps its rule, marked on the lab's source page", async ({
  shop,
  page,
}) => {
  await shop.placeOrder({ notebook: 1 });
  const expected: Record<string, string> = {
    "pitfall-partial-commit": "store.complete(claim, worked.outcome, context.completedAt(), tx)",
    "pitfall-memory-store": 'ON CONFLICT ("scope", "path", "key") DO NOTHING',
    "pitfall-keys-per-try": "const paymentKey = newPaymentKey();",
    "pitfall-cached-error": "FINAL_CODES.has(toTrpcError(error).code)",
    "pitfall-unbounded-wait": "withinWait(inFlight, this.settings.waitMs)",
  };
  const hrefs = await Promise.all(
    Object.keys(expected).map(async (id) => [
      id,
      await page.getByTestId(`${id}-enforcing`).getAttribute("href"),
    ]),
  );
  for (const [id, href] of hrefs) {
    await page.goto(href ?? "");
    await expect(page.locator("[data-enforcing]")).toContainText(expected[id ?? ""] ?? "");
    await expect(page.locator("[data-enforcing]")).toBeInViewport();
  }
  await shop.capture("source page, the enforcing line marked");
  expect((await page.request.get("/source/server/env.ts")).status()).toBe(404);
});
