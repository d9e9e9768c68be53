import type { Db } from "../db/client";
import type { Logger } from "service-kit/logger";
import { recordStep } from "./queue-account";
import type { DeliveryHandler, ReceiptQueue } from "./queue";

interface EmbeddedQueueSettings {
  /** How long a delivery holds its row: a consumer that dies holding it is redelivered after this. */
  visibilityMs: number;
  pollMs: number;
  prefetch: number;
  maxDeliveries: number;
  /** Past this age an event is dead-lettered instead of delivered. */
  windowMs: number;
}

/** The queue with no broker: a compare-and-set claim per row, redelivered once it runs out. */
export class EmbeddedQueue implements ReceiptQueue {
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #polling = false;

  constructor(
    private readonly db: Db,
    private readonly settings: EmbeddedQueueSettings,
    private readonly logger: Logger,
    /** The lab's fault: the event goes into the queue twice. */
    private readonly publishesTwice?: (orderId: string) => Promise<boolean>,
  ) {}

  async start(handler: DeliveryHandler): Promise<void> {
    this.#timer = setInterval(() => void this.#poll(handler), this.settings.pollMs);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.allSettled(this.#inFlight);
  }

  async #poll(handler: DeliveryHandler): Promise<void> {
    const room = this.settings.prefetch - this.#inFlight.size;
    if (this.#polling || room <= 0) return;
    this.#polling = true;
    try {
      const now = new Date();
      const due = await this.db.outboxEvent.findMany({
        where: { sentAt: null, deadAt: null, OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] },
        orderBy: { createdAt: "asc" },
        take: room,
      });
      for (const row of due) {
        const dead =
          row.deliveries >= this.settings.maxDeliveries ||
          row.createdAt.getTime() + this.settings.windowMs <= now.getTime();
        const { count } = await this.db.outboxEvent.updateMany({
          where: { id: row.id, deliveries: row.deliveries, sentAt: null, deadAt: null },
          data: dead
            ? { deadAt: now }
            : {
                deliveries: row.deliveries + 1,
                lockedUntil: new Date(now.getTime() + this.settings.visibilityMs),
              },
        });
        if (count === 0) continue; // another consumer took it first
        if (!dead && row.deliveries === 0) await this.#published(row);
        if (dead) this.logger.warn({ eventId: row.id, deliveries: row.deliveries }, "dead-lettered");
        else this.#track(this.#deliver(handler, row.id, row.payload, row.deliveries + 1));
      }
    } catch (error) {
      this.logger.error({ err: error }, "the embedded queue could not poll the outbox");
    } finally {
      this.#polling = false;
    }
  }

  async #deliver(handler: DeliveryHandler, id: string, payload: string, count: number): Promise<void> {
    try {
      await handler({ body: parseJson(payload), count });
      await this.db.outboxEvent.updateMany({
        where: { id, sentAt: null },
        data: { sentAt: new Date(), lockedUntil: null },
      });
    } catch (error) {
      this.logger.warn(
        { err: error, eventId: id, delivery: count },
        "delivery failed; it will be redelivered",
      );
      // Back off before the next delivery, as a broker's requeue would not: a key in progress needs time.
      const retryAt = new Date(Date.now() + Math.min(this.settings.visibilityMs, 250 * 2 ** count));
      await this.db.outboxEvent
        .updateMany({ where: { id, deliveries: count, sentAt: null }, data: { lockedUntil: retryAt } })
        .catch(() => undefined); // the claim runs out by itself
    }
  }

  /** A row is published when it is written; the lab's "publishes twice" writes a copy, another message. */
  async #published(row: { id: string; type: string; orderId: string; payload: string; createdAt: Date }) {
    await recordStep(this.db, {
      orderId: row.orderId,
      eventId: row.id,
      step: "published",
      at: row.createdAt,
    });
    if (!(await this.publishesTwice?.(row.orderId))) return;
    const { id, type, orderId, payload } = row;
    await this.db.outboxEvent.create({ data: { id: `${id}.copy`, type, orderId, payload } });
  }

  #track(delivery: Promise<void>): void {
    this.#inFlight.add(delivery);
    void delivery.finally(() => this.#inFlight.delete(delivery));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // the consumer refuses it, as it would a broker's malformed message
  }
}
