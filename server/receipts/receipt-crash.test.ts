import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { queueStory } from "~/app/_lib/story/queue-story";
import {
  receiptTestBed,
  receiptsPerOrder,
  seedPaidOrders,
  startWorkerProcess,
} from "~/testing/receipt-workers";
import type { WorkerCounterexamples, WorkerProcess } from "~/testing/receipt-workers";
import { queueAccountOf } from "./queue-account";

/**
 * Receipt workers killed with SIGKILL after the receipt is committed and
 * before its message is acknowledged, again and again, while payments keep
 * coming: the queue redelivers what the dead worker held. The mailbox must
 * hold exactly one receipt per paid order, and no event may be lost.
 */
/** How long each ack waits after its receipt: wide enough that a kill lands in it on a loaded machine (200 ms was not, in CI). */
const ACK_DELAY_MS = 500;

describe.each(["embedded", "rabbitmq"] as const)("on the %s queue", (kind) => {
  const bed = receiptTestBed(kind);

  const envOf = () => ({
    DATABASE_URL: bed.database.url,
    ...bed.env,
    RECEIPT_PREFETCH: "10",
    RECEIPT_POLL_MS: "50",
    RECEIPT_VISIBILITY_MS: "1000",
    RECEIPT_MAX_DELIVERIES: "1000", // a message held by many dead workers is not poison
    IDEMPOTENCY_LEASE_MS: "1500",
  });

  /**
   * Two workers; kills one at each "settled" line in turn, restarting it, while orders are paid; then one worker
   * drains. Each ack waits ACK_DELAY_MS after its receipt: the window the kills aim at.
   */
  async function killBetweenReceiptAndAck(kills: number, counterexamples: WorkerCounterexamples = {}) {
    const env = envOf();
    const start = () => startWorkerProcess(env, { ackDelayMs: ACK_DELAY_MS, ...counterexamples });
    const workers = [start(), start()];
    const all: WorkerProcess[] = [...workers];
    let killing = true;
    const paying = (async () => {
      const ids = await seedPaidOrders(bed.db, 20);
      while (killing) {
        ids.push(...(await seedPaidOrders(bed.db, 1)));
        await sleep(300);
      }
      return ids;
    })();
    const aimedAt: string[] = [];
    for (let kill = 0; kill < kills; kill++) {
      const index = kill % workers.length;
      // Raced with the payments, so that a failed payment fails the test instead of starving it of lines.
      const settled = await Promise.race([
        workers[index]!.next((line) => line.msg === "receipt settled; acknowledging"),
        paying,
      ]);
      await workers[index]!.kill("SIGKILL");
      aimedAt.push((settled as { deliveryId: string }).deliveryId);
      workers[index] = start();
      all.push(workers[index]!);
    }
    killing = false;
    const orders = await paying;
    // One worker drains: two relays can publish the same row, and a copy confirmed as both stop stays queued.
    await Promise.all(workers.map((worker) => worker.kill("SIGTERM")));
    const drainer = start();
    all.push(drainer);
    // Drained: every order has its receipt, the outbox is sent, and the broker holds no redelivery still to answer.
    const drained = async () => [
      (await receiptsPerOrder(bed.db)).size,
      await bed.db.outboxEvent.count({ where: { sentAt: null } }),
      kind === "rabbitmq" ? (await bed.queue.counts()).ready : 0,
    ];
    await expect.poll(drained, { timeout: 120_000, interval: 500 }).toEqual([orders.length, 0, 0]);
    await drainer.kill("SIGTERM");
    const replayed = all
      .flatMap((worker) => worker.lines)
      .filter((line) => line.decision === "replayed").length;
    // A kill that came after its delivery's ack was recorded stranded nothing (a machine slower than ACK_DELAY_MS).
    const late = await bed.db.queueStep.count({ where: { id: { in: aimedAt }, ackedAt: { not: null } } });
    return { orders, replayed, stranding: kills - late };
  }

  test("SIGKILL between the receipt and the ack, many times under load: one receipt per paid order, none lost", async () => {
    const kills = 10;
    const { orders, replayed, stranding } = await killBetweenReceiptAndAck(kills);

    const perOrder = await receiptsPerOrder(bed.db);
    expect([...perOrder.keys()].sort()).toEqual([...orders].sort());
    expect([...perOrder.values()].every((count) => count === 1)).toBe(true);
    expect(
      await bed.db.outboxEvent.count({ where: { OR: [{ sentAt: null }, { deadAt: { not: null } }] } }),
    ).toBe(0);
    if (kind === "rabbitmq") expect(await bed.queue.counts()).toEqual({ ready: 0, dead: 0 });
    // However the kills fell, the order page draws each receipt on a delivery: its own row names it.
    for (const orderId of orders) {
      const { rows } = queueStory(await queueAccountOf(bed.db, orderId));
      const marks = rows.flatMap((row) => (row.kind === "delivery" ? row.receipts : []));
      expect(marks).toHaveLength(1);
    }
    // Every kill between a receipt and its ack stranded a settled message: its redelivery was answered from the key.
    expect(stranding).toBeGreaterThanOrEqual(kills / 2);
    expect(replayed).toBeGreaterThanOrEqual(stranding);
    console.log(
      `${kind}: ${kills} kills (${stranding} between receipt and ack), ${orders.length} paid orders, ${perOrder.size} receipts, ${replayed} redeliveries replayed`,
    );
  }, 420_000);

  test("with the run-once guard off, the same kills leave duplicate receipts", async () => {
    const kills = 3;
    const { orders } = await killBetweenReceiptAndAck(kills, { naive: true });

    const perOrder = await receiptsPerOrder(bed.db);
    expect(perOrder.size).toBe(orders.length); // none lost
    // Every kill stranded a sent receipt, and its redelivery sent another.
    const extra = [...perOrder.values()].reduce((sum, count) => sum + count - 1, 0);
    expect(extra).toBeGreaterThanOrEqual(kills);
  }, 420_000);
});
