import { describe, expect, test } from "vitest";
import { logger } from "service-kit/logger";
import { queueStory } from "~/app/_lib/story/queue-story";
import type { Db } from "../db/client";
import { receiptTestBed, seedPaidOrders } from "~/testing/receipt-workers";
import { queueAccountOf } from "./queue-account";
import { receiptSettings } from "./receipt-settings";
import { startReceiptWorker } from "./receipt-worker";

/**
 * The database refuses the worker's record of an event's first delivery, the
 * statement after the receipt's transaction commits: as if the worker died
 * there. Its redelivery is recorded.
 */
async function loseTheFirstDeliveryRecord(db: Db, databaseUrl: string) {
  if (databaseUrl.startsWith("file:")) {
    await db.$executeRawUnsafe(`CREATE TRIGGER "lose_first_delivery" BEFORE INSERT ON "QueueStep"
      WHEN NEW."step" = 'delivered' AND NEW."delivery" = 1
      BEGIN SELECT RAISE(ABORT, 'the worker died here'); END`);
    return;
  }
  await db.$executeRawUnsafe(`CREATE FUNCTION "lose_first_delivery"() RETURNS trigger AS $$
    BEGIN RAISE EXCEPTION 'the worker died here'; END $$ LANGUAGE plpgsql`);
  await db.$executeRawUnsafe(`CREATE TRIGGER "lose_first_delivery" BEFORE INSERT ON "QueueStep"
    FOR EACH ROW WHEN (NEW."step" = 'delivered' AND NEW."delivery" = 1)
    EXECUTE FUNCTION "lose_first_delivery"()`);
}

describe.each(["embedded", "rabbitmq"] as const)("on the %s queue", (kind) => {
  const bed = receiptTestBed(kind);

  test("the worker dies between the receipt's commit and its record of the delivery: the account still names the delivery that sent the receipt", async () => {
    await loseTheFirstDeliveryRecord(bed.db, bed.database.url);
    const worker = await startReceiptWorker(
      receiptSettings({ ...bed.env, RECEIPT_POLL_MS: "50" }),
      bed.database.url,
      logger,
    );
    try {
      const [orderId] = await seedPaidOrders(bed.db, 1);
      const story = async () => queueStory(await queueAccountOf(bed.db, orderId!));
      await expect
        .poll(async () => (await story()).sentence, { timeout: 20_000 })
        .toBe(
          "2 deliveries; 1 receipt: delivery 1 sent it and was not acknowledged, delivery 2 replayed delivery 1's receipt.",
        );
      const [receipt] = await bed.db.receipt.findMany({ where: { orderId } });
      // The worker's record of the delivery that sent it was lost; the receipt's own row names it.
      expect(await bed.db.queueStep.count({ where: { id: receipt!.deliveryId } })).toBe(0);
      expect(receipt).toMatchObject({ delivery: 1, pid: process.pid });
      const [first, second] = (await story()).rows.filter((row) => row.kind === "delivery");
      expect(first).toMatchObject({
        id: receipt!.deliveryId,
        number: 1,
        to: `to worker ${process.pid}`,
        decision: null,
        receipts: [{ id: receipt!.id, naive: false, extra: false }],
        box: "receipt",
      });
      expect(second).toMatchObject({ number: 2, decision: "replayed", receipts: [], box: "answered" });
    } finally {
      await worker.close();
    }
  }, 60_000);
});
