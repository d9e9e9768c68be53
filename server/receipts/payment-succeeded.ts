import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Tx } from "../db/client";

export const PAYMENT_SUCCEEDED = "payment.succeeded";

/** The event a receipt answers: the order, the charge and the amount. */
export const paymentSucceeded = z.object({
  eventId: z.string().min(1),
  orderId: z.string().min(1),
  chargeId: z.string().min(1),
  amountCents: z.number().int().positive(),
});
export type PaymentSucceeded = z.infer<typeof paymentSucceeded>;

/** Writes the event in the charge's own transaction: no charge without its event. */
export async function writePaymentSucceeded(
  tx: Tx,
  charge: { id: string; orderId: string; amountCents: number },
): Promise<void> {
  const event: PaymentSucceeded = {
    eventId: `evt_${randomUUID()}`,
    orderId: charge.orderId,
    chargeId: charge.id,
    amountCents: charge.amountCents,
  };
  await tx.outboxEvent.create({
    data: {
      id: event.eventId,
      type: PAYMENT_SUCCEEDED,
      orderId: event.orderId,
      payload: JSON.stringify(event),
    },
  });
}
