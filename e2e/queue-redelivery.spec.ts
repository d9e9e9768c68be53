import type { Locator, Page } from "@playwright/test";
import type { Db } from "../server/db/client";
import { DESKTOP, PHONE } from "./environment";
import { LAB, expect, test } from "./fixtures";
import type { Shop } from "./fixtures";

/**
 * The lab's queue scenario, driven as a person would: choose it, press Pay,
 * read the queue lane (the queue story, from the receipt worker's account and
 * the receipts) and the ledger's mailbox, each mark checked against the
 * receipts table. The worker really dies (SIGKILL) between the receipt and its
 * ack; `npm start`, which runs this suite's servers, starts it again, and the
 * embedded queue redelivers once the dead worker's claim runs out (10 s).
 */

// One worker serves each server: a kill in one test would strand the other's delivery too.
test.describe.configure({ mode: "serial" });

/** Long enough for a restart of the worker and the claim's 10 s, on a loaded machine. */
const REDELIVERED_WITHIN = { timeout: 45_000 };

/** What "Should happen" adds for each variation once it is switched on. */
const VARIATION_WORDS: Record<string, RegExp> = {
  "Naive consumer (counter-example)": /naive consumer/i,
  "A poison message": /poison/i,
};

/** What the lane should draw: per delivery, what it did and what became of its ack, and any damage. */
interface ExpectedLane {
  happened: string;
  outcomes: string[];
  acks: string[];
  damage?: Array<string | null>;
}

/**
 * A test of the scenario: places an order, chooses the scenario, turns on the variation given (a switch's
 * label), pays, waits until the queue lane says `happened`, checks its marks at both widths, then the rest.
 */
function queueTest(
  title: string,
  run: ExpectedLane & { variation?: string },
  check: (paid: { shop: Shop; page: Page; db: Db; orderId: string; lane: Locator }) => Promise<void>,
) {
  test(title, async ({ shop, page, db }) => {
    test.setTimeout(90_000);
    const orderId = await shop.placeOrder({ notebook: 1 });
    const saved = page.waitForResponse((response) => response.url().includes("lab.setSwitches"));
    await page.getByLabel("Try a scenario").selectOption({ label: "A job redelivered by the queue" });
    expect((await saved).ok()).toBe(true);
    await expect(page.getByLabel("The receipt worker dies before its ack")).toBeChecked();
    // "Should happen" tells only what is switched on: no variation until one is.
    const shouldHappen = page.getByTestId("scenario-should-happen");
    await expect(shouldHappen).not.toContainText(/poison|naive consumer|second publication/i);
    if (run.variation) {
      await shop.switchOn(run.variation);
      await expect(shouldHappen).toContainText(VARIATION_WORDS[run.variation]!);
    }
    await shop.payButton().click();
    await shop.expectCharged();
    const lane = page.getByTestId("queue-lane");
    await expect(lane.getByTestId("queue-summary")).toHaveText(run.happened, REDELIVERED_WITHIN);
    // The picker's "What happened" tells the same story.
    await expect(page.getByTestId("scenario-happened")).toContainText(`Then the queue: ${run.happened}`);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await expectLaneAgreesWithReceipts(lane, db, orderId, run);
    }
    await check({ shop, page, db, orderId, lane });
  });
}

/**
 * The lane's marks against the receipts table: a receipt mark on exactly the delivery each receipt's own row
 * names, visible; and each delivery's caption and ack, numbered as the sentence numbers them.
 */
async function expectLaneAgreesWithReceipts(lane: Locator, db: Db, orderId: string, expected: ExpectedLane) {
  const receipts = await db.receipt.findMany({ where: { orderId }, orderBy: { createdAt: "asc" } });
  const deliveries = lane.locator("[data-delivery-id]");
  const drawn = await deliveries.evaluateAll((rows) =>
    rows.map((row) => ({
      number: row.getAttribute("data-delivery"),
      id: row.getAttribute("data-delivery-id"),
      marks: [...row.querySelectorAll("[data-receipt-mark]")].map((mark) =>
        mark.getAttribute("data-receipt-mark"),
      ),
    })),
  );
  expect(drawn).toEqual(
    drawn.map((row, i) => ({
      number: String(i + 1),
      id: row.id,
      marks: receipts.filter((receipt) => receipt.deliveryId === row.id).map((receipt) => receipt.id),
    })),
  );
  expect(drawn.flatMap((row) => row.marks).sort()).toEqual(receipts.map((receipt) => receipt.id).sort());
  for (const receipt of receipts)
    await expect(lane.locator(`[data-receipt-mark="${receipt.id}"]`)).toBeVisible();
  await expect(deliveries.getByTestId("queue-outcome")).toHaveText(expected.outcomes);
  await expect(deliveries.getByTestId("queue-ack")).toHaveText(expected.acks);
  await expect(deliveries.locator("strong")).toHaveText(expected.outcomes.map((_, i) => `Delivery ${i + 1}`));
  if (expected.damage) {
    for (const [i, damage] of expected.damage.entries()) {
      const badge = deliveries.nth(i).locator(".badge.danger");
      if (damage) await expect(badge).toHaveText(damage);
      else await expect(badge).toHaveCount(0);
    }
  }
}

/** The order's line in the ledger's mailbox, reached as a person would, checked against the receipts table. */
async function expectMailbox(page: Page, db: Db, orderId: string, verdict: string, why?: string) {
  await page.getByRole("link", { name: "Ledger" }).click();
  const row = page.getByTestId("mailbox").locator(`[data-mailbox-order="${orderId}"]`);
  const receipts = await db.receipt.findMany({ where: { orderId }, orderBy: { createdAt: "asc" } });
  await expect(row).toHaveAttribute("data-receipts", receipts.map((receipt) => receipt.id).join(" "));
  await expect(row.getByTestId("mailbox-verdict")).toHaveText(verdict);
  if (why) await expect(row.getByTestId("mailbox-why")).toHaveText(why);
  else await expect(row.getByTestId("mailbox-why")).toHaveCount(0);
  for (const receipt of receipts) {
    await expect(row).toContainText(`by worker ${receipt.pid}${receipt.naive ? " (naive consumer)" : ""}`);
    // The receipt itself can be read: what it says of the order, its amount and its charge.
    const contents = row.locator(`[data-receipt="${receipt.id}"]`);
    await contents.locator("summary").click();
    await expect(contents).toContainText(`Receipt ${receipt.id}`);
    await expect(contents).toContainText(`$${(receipt.amountCents / 100).toFixed(2)}`);
    await expect(contents).toContainText(receipt.chargeId);
  }
  return row;
}

queueTest(
  "the worker dies between the receipt and its ack; the queue redelivers, and the key replays: one receipt",
  {
    happened:
      "2 deliveries; 1 receipt: delivery 1 sent it and died before its ack, delivery 2 replayed delivery 1's receipt.",
    outcomes: ["executed: sent the receipt", "replayed: answered with delivery 1's receipt, none sent"],
    acks: ["died before its ack", "acknowledged"],
    damage: [null, null],
  },
  async ({ shop, page, db, orderId, lane }) => {
    await expect(lane.locator('[data-queue-step="publish"]')).toHaveCount(1);
    await expect(lane.locator('[data-queue-step="deliver"]')).toHaveAttribute("data-ack", "none");
    // A worker that died before its ack sent none: no arrow back to the queue, crossed or not.
    await expect(lane.locator('[data-queue-step="deliver"] .lanes-arrow.reply')).toHaveCount(0);
    await expect(lane.locator('[data-queue-step="redeliver"] .lanes-arrow.reply')).toHaveCount(1);
    await expect(lane.locator('[data-queue-step="redeliver"]')).toHaveAttribute("data-ack", "acked");
    // The worker spent its one death: the switch no longer says it is armed.
    await expect(page.getByLabel("The receipt worker dies before its ack")).not.toBeChecked();
    await shop.capture("queue lane: one receipt");

    await expectMailbox(page, db, orderId, "sent once");
  },
);

queueTest(
  "with the naive consumer, the redelivery sends a second receipt, flagged as damage",
  {
    happened:
      "2 deliveries; 2 receipts: delivery 1 sent it naively and died before its ack, delivery 2 sent another naively.",
    variation: "Naive consumer (counter-example)",
    outcomes: ["sent naively: a receipt without the key", "sent naively: a receipt without the key"],
    acks: ["died before its ack", "acknowledged"],
    damage: [null, "a second receipt"],
  },
  async ({ shop, page, db, orderId }) => {
    const row = await expectMailbox(page, db, orderId, "sent 2 times");
    await expect(row).toHaveClass(/extra-charge/);
    await shop.capture("mailbox: two receipts");
  },
);

queueTest(
  "a poison message is dead-lettered after its last allowed delivery, and the mailbox says no receipt will come",
  {
    happened:
      "5 deliveries; 0 receipts: delivery 1 failed, delivery 2 failed, delivery 3 failed, delivery 4 failed, delivery 5 failed; its last allowed delivery failed, and the queue dead-lettered it.",
    variation: "A poison message",
    outcomes: Array(5).fill("failed: no receipt"),
    acks: Array(5).fill("handed back"),
  },
  async ({ page, db, orderId, lane }) => {
    await expect(lane.locator('[data-queue-step="dead-letter"]')).toContainText(
      "dead-lettered after delivery 5",
    );
    await expectMailbox(
      page,
      db,
      orderId,
      "no receipt will come",
      "the queue dead-lettered its payment event",
    );
  },
);

test("an order the naive client paid wrote no payment event: the mailbox says why no receipt will come, not that one is on its way", async ({
  shop,
  page,
  db,
}) => {
  const orderId = await shop.orderWith(LAB.naiveClient);
  await page.getByRole("button", { name: /^Pay naively/ }).click();
  await shop.expectCharged();
  expect(await db.outboxEvent.count({ where: { orderId } })).toBe(0);
  await expectMailbox(
    page,
    db,
    orderId,
    "no receipt will come",
    "the naive client's charge wrote no payment.succeeded event",
  );
  await shop.capture("mailbox: no event, no receipt");
});
