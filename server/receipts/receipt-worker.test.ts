import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { pino } from "pino";
import type { Logger } from "service-kit/logger";
import {
  receiptTestBed,
  receiptsPerOrder,
  seedPaidOrders,
  startWorkerProcess,
} from "~/testing/receipt-workers";
import { receiptSettings } from "./receipt-settings";
import { startReceiptWorker } from "./receipt-worker";

const WINDOW_MS = 5_000;
/** A worker process compiles its TypeScript as it starts: seconds on a loaded machine. */
const PROCESS_START_MS = 90_000;

test(
  "refuses to start when its keys would expire inside the redelivery window, quoting the guide",
  async () => {
    const worker = startWorkerProcess({
      RECEIPT_KEY_TTL_MS: "1000",
      RECEIPT_REDELIVERY_WINDOW_MS: String(WINDOW_MS),
    });
    const { code, stderr } = await worker.exited;
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      expect.stringContaining(
        '"if a queue can redeliver a message for up to three days, a 24-hour key TTL reopens the double-execution window on day two"',
      ),
    ]);
  },
  PROCESS_START_MS,
);

test(
  "a broker that cannot be reached at start stops the worker with one sentence naming the URL",
  async () => {
    const worker = startWorkerProcess({ AMQP_URL: "amqp://guest:guest@127.0.0.1:1" });
    const { code, stderr } = await worker.exited;
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(
      /^The queue broker at amqp:\/\/guest:\*\*\*@127\.0\.0\.1:1 \(AMQP_URL\) cannot be reached: [^\n]+\.$/,
    );
  },
  PROCESS_START_MS,
);

describe.each(["embedded", "rabbitmq"] as const)("on the %s queue", (kind) => {
  const bed = receiptTestBed(kind);
  let worker: Awaited<ReturnType<typeof startReceiptWorker>> | undefined;
  /** The consumer's decisions, as it logs them. */
  const decisions: unknown[] = [];
  const logger = pino(
    { level: "info" },
    { write: (line: string) => void decisions.push(JSON.parse(line).decision) },
  );
  beforeEach(() => {
    decisions.length = 0;
  });
  // Registered after the bed's, so run before it: the worker lets go before its database is dropped.
  afterEach(async () => {
    await worker?.close();
  });

  const start = (env: Record<string, string>) =>
    startReceiptWorker(
      receiptSettings({
        ...bed.env,
        RECEIPT_POLL_MS: "50",
        ...env,
      }),
      bed.database.url,
      logger as unknown as Logger,
    );
  /** Hands the event back to the queue, as a relay that died before marking it sent, or a lost ack, would. */
  const redeliver = (orderId: string) =>
    bed.db.outboxEvent.updateMany({ where: { orderId }, data: { sentAt: null } });
  const sent = async (orderId: string) =>
    (await bed.db.outboxEvent.findFirstOrThrow({ where: { orderId } })).sentAt;

  test("with a short window, a redelivery inside it is replayed from the key, and one past it is dead, not sent", async () => {
    worker = await start({
      RECEIPT_REDELIVERY_WINDOW_MS: String(WINDOW_MS),
      RECEIPT_KEY_TTL_MS: String(WINDOW_MS),
    });
    const [orderId] = await seedPaidOrders(bed.db, 1);
    await expect.poll(() => decisions.filter(Boolean), { timeout: 10_000 }).toEqual(["executed"]);
    await expect.poll(() => sent(orderId!), { timeout: 10_000 }).not.toBeNull();

    await redeliver(orderId!);
    await expect.poll(() => decisions.filter(Boolean), { timeout: 10_000 }).toEqual(["executed", "replayed"]);
    expect((await receiptsPerOrder(bed.db)).get(orderId!)).toBe(1);
    // The receipt names the delivery that sent it: the worker's record of it, and its process.
    const receipt = await bed.db.receipt.findFirstOrThrow({ where: { orderId } });
    const executed = await bed.db.queueStep.findFirstOrThrow({ where: { orderId, decision: "executed" } });
    expect(receipt).toMatchObject({ deliveryId: executed.id, delivery: 1, pid: process.pid });

    // Past the window the key may be gone, so the event must be too: dead-lettered, never delivered.
    const event = await bed.db.outboxEvent.findFirstOrThrow({ where: { orderId } });
    await new Promise((resolve) =>
      setTimeout(resolve, event.createdAt.getTime() + WINDOW_MS - Date.now() + 100),
    );
    await redeliver(orderId!);
    await expect
      .poll(async () => (await bed.db.outboxEvent.findFirstOrThrow({ where: { orderId } })).deadAt, {
        timeout: 10_000,
      })
      .not.toBeNull();
    expect((await receiptsPerOrder(bed.db)).get(orderId!)).toBe(1);
    expect(decisions.filter(Boolean)).toEqual(["executed", "replayed"]);
  }, 60_000);

  test("a poison message goes to the dead-letter queue after its last allowed delivery", async () => {
    worker = await start({ RECEIPT_MAX_DELIVERIES: "3", RECEIPT_VISIBILITY_MS: "1000" });
    await bed.db.outboxEvent.create({
      data: { id: "evt_poison", type: "payment.succeeded", orderId: "ord_x", payload: '{"orderId":5}' },
    });
    if (kind === "rabbitmq") {
      await expect.poll(() => bed.queue.counts(), { timeout: 20_000 }).toEqual({ ready: 0, dead: 1 });
    } else {
      await expect
        .poll(
          async () => (await bed.db.outboxEvent.findUniqueOrThrow({ where: { id: "evt_poison" } })).deadAt,
          {
            timeout: 20_000,
          },
        )
        .not.toBeNull();
      expect((await bed.db.outboxEvent.findUniqueOrThrow({ where: { id: "evt_poison" } })).deliveries).toBe(
        3,
      );
    }
    expect(await bed.db.receipt.count()).toBe(0);
  }, 60_000);
});
