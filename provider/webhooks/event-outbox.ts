import { randomBytes } from "node:crypto";
import type { ProviderTx } from "../db/client";
import { eventJson } from "../stripe-objects";

/**
 * Writes an event for the merchant's webhook endpoint in the transaction of
 * what it tells, so that a committed payment always has its event and a
 * rolled-back one never does; the deliverer sends it from there.
 */
export async function recordEvent(
  tx: ProviderTx,
  event: {
    account: string;
    type: string;
    object: unknown;
    idempotencyKey: string | null;
    /** The lab's "delivered twice": the deliverer sends it again after its first 2xx. */
    deliverTwice: boolean;
  },
): Promise<void> {
  const id = `evt_${randomBytes(12).toString("hex")}`;
  const createdAt = new Date();
  await tx.webhookEvent.create({
    data: {
      id,
      account: event.account,
      type: event.type,
      payload: JSON.stringify(eventJson({ id, ...event, createdAt })),
      deliverTwice: event.deliverTwice,
      createdAt,
      nextAttemptAt: createdAt,
    },
  });
}
