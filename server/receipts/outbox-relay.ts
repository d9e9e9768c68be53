import type { Db } from "../db/client";
import type { Logger } from "service-kit/logger";
import { PeriodicJob } from "service-kit/periodic-job";
import { recordStep } from "./queue-account";

/** Publishes the outbox oldest first, rows marked sent once confirmed (a crash republishes). */
export class OutboxRelay extends PeriodicJob<void> {
  constructor(
    private readonly db: Db,
    private readonly publish: (message: { id: string; body: unknown }, expiresInMs: number) => Promise<void>,
    private readonly settings: { windowMs: number },
    private readonly logger: Logger,
    /** The lab's fault: the event is published twice. */
    private readonly publishesTwice?: (orderId: string) => Promise<boolean>,
  ) {
    super(
      () => this.#relay(),
      (error) => logger.error({ err: error }, "the outbox relay failed; it will try again"),
    );
  }

  async #relay(): Promise<void> {
    const rows = await this.db.outboxEvent.findMany({
      where: { sentAt: null, deadAt: null },
      orderBy: { createdAt: "asc" },
      take: 100,
    });
    for (const row of rows) {
      const expiresInMs = row.createdAt.getTime() + this.settings.windowMs - Date.now();
      if (expiresInMs <= 0) {
        await this.db.outboxEvent.update({ where: { id: row.id }, data: { deadAt: new Date() } });
        this.logger.warn({ eventId: row.id }, "past the redelivery window: dead, not published");
        continue;
      }
      const message = { id: row.id, body: JSON.parse(row.payload) };
      const copies = (await this.publishesTwice?.(row.orderId)) ? 2 : 1;
      for (let copy = 0; copy < copies; copy++) {
        await this.publish(message, expiresInMs);
        await recordStep(this.db, { orderId: row.orderId, eventId: row.id, step: "published" });
      }
      await this.db.outboxEvent.update({ where: { id: row.id }, data: { sentAt: new Date() } });
    }
  }
}
