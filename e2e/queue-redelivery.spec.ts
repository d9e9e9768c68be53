import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { Shop } from "./fixtures";

/**
 * The lab's queue scenario, driven as a person would: choose it, press Pay,
 * read the queue lane (drawn from the receipt worker's own account) and the
 * ledger's mailbox. The worker really dies (SIGKILL) between the receipt and
 * its ack; `npm start`, which runs this suite's servers, starts it again, and
 * the embedded queue redelivers once the dead worker's claim runs out (10 s).
 */

// One worker serves each server: a kill in one test would strand the other's delivery too.
test.describe.configure({ mode: "serial" });

/** Long enough for a restart of the worker and the claim's 10 s, on a loaded machine. */
const REDELIVERED_WITHIN = { timeout: 45_000 };

/**
 * A test of the scenario: places an order, chooses the scenario, turns on the variation given (a switch's
 * label), pays, waits until the queue lane says `happened`, then checks the rest.
 */
function queueTest(
  title: string,
  run: { happened: string; variation?: string },
  check: (paid: { shop: Shop; page: Page; orderId: string; lane: Locator }) => Promise<void>,
) {
  test(title, async ({ shop, page }) => {
    test.setTimeout(90_000);
    const orderId = await shop.placeOrder({ notebook: 1 });
    const saved = page.waitForResponse((response) => response.url().includes("lab.setSwitches"));
    await page.getByLabel("Try a scenario").selectOption({ label: "A job redelivered by the queue" });
    expect((await saved).ok()).toBe(true);
    await expect(page.getByLabel("The receipt worker dies before its ack")).toBeChecked();
    if (run.variation) await shop.switchOn(run.variation);
    await shop.payButton().click();
    await shop.expectCharged();
    const lane = page.getByTestId("queue-lane");
    await expect(lane.getByTestId("queue-summary")).toHaveText(run.happened, REDELIVERED_WITHIN);
    // The picker's "What happened" tells the same account.
    await expect(page.getByTestId("scenario-happened")).toContainText(`Then the queue: ${run.happened}`);
    await check({ shop, page, orderId, lane });
  });
}

/** The order's line in the ledger's mailbox, reached as a person would. */
async function mailboxRow(page: Page, orderId: string) {
  await page.getByRole("link", { name: "Ledger" }).click();
  return page.getByTestId("mailbox").locator(`[data-mailbox-order="${orderId}"]`);
}

queueTest(
  "the worker dies between the receipt and its ack; the queue redelivers, and the key replays: one receipt",
  { happened: "2 deliveries; 1 receipt: delivery 1 sent it and died before its ack, delivery 2 replayed." },
  async ({ shop, page, orderId, lane }) => {
    await expect(lane.locator('[data-queue-step="publish"]')).toHaveCount(1);
    const deliver = lane.locator('[data-queue-step="deliver"]');
    await expect(deliver).toHaveAttribute("data-decision", "executed");
    await expect(deliver).toHaveAttribute("data-acked", "false");
    await expect(deliver.getByTestId("queue-ack")).toHaveText("died before its ack");
    const redeliver = lane.locator('[data-queue-step="redeliver"]');
    await expect(redeliver).toHaveAttribute("data-decision", "replayed");
    await expect(redeliver).toHaveAttribute("data-acked", "true");
    // The worker spent its one death: the switch no longer says it is armed.
    await expect(page.getByLabel("The receipt worker dies before its ack")).not.toBeChecked();
    await shop.capture("queue lane: one receipt");

    const row = await mailboxRow(page, orderId);
    await expect(row).toHaveAttribute("data-receipts", "1");
    await expect(row).toContainText("sent once");
  },
);

queueTest(
  "with the naive consumer, the redelivery sends a second receipt, flagged as damage",
  {
    happened:
      "2 deliveries; 2 receipts: delivery 1 sent it naively and died before its ack, delivery 2 sent another naively.",
    variation: "Naive consumer (counter-example)",
  },
  async ({ shop, page, orderId, lane }) => {
    await expect(lane.locator('[data-queue-step="redeliver"]')).toContainText("a second receipt");

    const row = await mailboxRow(page, orderId);
    await expect(row).toHaveAttribute("data-receipts", "2");
    await expect(row).toHaveClass(/extra-charge/);
    await expect(row).toContainText("sent 2 times");
    await expect(row).toContainText("(naive consumer)");
    await shop.capture("mailbox: two receipts");
  },
);

queueTest(
  "a poison message is dead-lettered after its last allowed delivery, and the mailbox says no receipt will come",
  {
    happened:
      "5 deliveries; 0 receipts: delivery 1 failed, delivery 2 failed, delivery 3 failed, delivery 4 failed, delivery 5 failed; its last allowed delivery failed, and the queue dead-lettered it.",
    variation: "A poison message",
  },
  async ({ page, orderId, lane }) => {
    await expect(lane.locator('[data-queue-step="dead-letter"]')).toHaveCount(1);

    const row = await mailboxRow(page, orderId);
    await expect(row).toHaveAttribute("data-receipts", "0");
    await expect(row).toHaveAttribute("data-dead-lettered", "true");
  },
);
