import { randomBytes } from "node:crypto";
import type { ProviderDb, ProviderTx } from "../db/client";
import { eventJson } from "../stripe-objects";

/** Writes an event in the transaction of what it tells: a committed payment always has its event. */
export async function recordEvent(
  tx: ProviderTx,
  event: {
    account: string;
    type: string;
    object: unknown;
    /** The PaymentIntent's metadata.order: an order's deliveries are found by it. */
    orderRef: string | null;
    request: Parameters<typeof eventJson>[0]["request"];
  },
): Promise<void> {
  const id = `evt_${randomBytes(12).toString("hex")}`;
  const createdAt = new Date();
  const { account, type, orderRef } = event;
  await tx.webhookEvent.create({
    data: {
      id,
      account,
      type,
      orderRef,
      payload: JSON.stringify(eventJson({ id, ...event, createdAt })),
      createdAt,
      nextAttemptAt: createdAt,
    },
    select: { id: true },
  });
}

/** Forgets the events older than the retention window (30 days, as Stripe keeps them), and their deliveries with them. */
export async function sweepEvents(db: ProviderDb, createdBefore: Date): Promise<number> {
  const { count } = await db.webhookEvent.deleteMany({ where: { createdAt: { lt: createdBefore } } });
  return count;
}
