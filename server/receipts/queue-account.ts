import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Db } from "../db/client";
import { PAYMENT_SUCCEEDED } from "./payment-succeeded";

/** What the worker records of a message: its publication, each delivery, its dead-lettering. */
const QUEUE_STEPS = ["published", "delivered", "dead-lettered"] as const;
type QueueStepName = (typeof QUEUE_STEPS)[number];

/** The worker's own account, step by step, as the queue lane draws it; a delivery's step may come with its id. */
export function recordStep(
  db: Db,
  step: {
    id?: string;
    orderId: string;
    eventId: string;
    step: QueueStepName;
    delivery?: number;
    decision?: string;
    at?: Date;
  },
) {
  return db.queueStep.create({ data: { id: `qs_${randomUUID()}`, pid: process.pid, ...step } });
}

/** What an order's receipts come from: its events, how it was paid, and the receipts themselves. */
export const receiptAccountOutput = z.object({
  /** The order's payment.succeeded events in the outbox (a copy is a second); none when its charge skipped the outbox. */
  events: z.array(z.object({ id: z.string(), deadLettered: z.boolean() })),
  /** A charge of the order was made by the lab's naive client, which writes no event. */
  chargedNaively: z.boolean(),
  /** Each receipt with the delivery that sent it, read from the receipt's own row. */
  receipts: z.array(
    z.object({
      id: z.string(),
      eventId: z.string(),
      /** The id of the delivery's step in `steps`, which a worker that died before recording it never wrote. */
      deliveryId: z.string(),
      delivery: z.number().int(),
      /** What the receipt says: the charge it is for, and its amount. */
      chargeId: z.string(),
      amountCents: z.number().int(),
      pid: z.number().int(),
      naive: z.boolean(),
      createdAt: z.iso.datetime(),
    }),
  ),
});
export type ReceiptAccount = z.infer<typeof receiptAccountOutput>;

export const queueAccountOutput = receiptAccountOutput.extend({
  /** The worker's record of each publication, delivery (its decision and ack) and dead-lettering. */
  steps: z.array(
    z.object({
      id: z.string(),
      eventId: z.string(),
      step: z.enum(QUEUE_STEPS),
      delivery: z.number().int().nullable(),
      decision: z.string().nullable(),
      pid: z.number().int().nullable(),
      at: z.iso.datetime(),
      ackedAt: z.iso.datetime().nullable(),
    }),
  ),
});
export type QueueAccount = z.infer<typeof queueAccountOutput>;

/** Per order, its receipt account: four reads, whatever the number of orders. */
export async function receiptAccountsOf(db: Db, orderIds: string[]): Promise<Map<string, ReceiptAccount>> {
  const ofOrders = { orderId: { in: orderIds } };
  const [events, deadSteps, naiveCharges, receipts] = await Promise.all([
    db.outboxEvent.findMany({
      where: { ...ofOrders, type: PAYMENT_SUCCEEDED },
      select: { id: true, orderId: true, deadAt: true },
      orderBy: { createdAt: "asc" },
    }),
    db.queueStep.findMany({ where: { ...ofOrders, step: "dead-lettered" }, select: { eventId: true } }),
    db.charge.findMany({ where: { ...ofOrders, naive: true }, select: { orderId: true } }),
    db.receipt.findMany({ where: ofOrders, orderBy: { createdAt: "asc" } }),
  ]);
  // Dead by the outbox's mark (the embedded queue, the relay past the window) or the worker's (RabbitMQ's dead letter).
  const dead = new Set(deadSteps.map((step) => step.eventId));
  return new Map(
    orderIds.map((orderId) => [
      orderId,
      {
        events: events
          .filter((event) => event.orderId === orderId)
          .map((event) => ({ id: event.id, deadLettered: event.deadAt !== null || dead.has(event.id) })),
        chargedNaively: naiveCharges.some((charge) => charge.orderId === orderId),
        receipts: receipts
          .filter((receipt) => receipt.orderId === orderId)
          .map(({ orderId: _, createdAt, ...receipt }) => ({
            ...receipt,
            createdAt: createdAt.toISOString(),
          })),
      },
    ]),
  );
}

/** An order's whole account: its receipts, and the worker's steps in the order they happened. */
export async function queueAccountOf(db: Db, orderId: string): Promise<QueueAccount> {
  const [receipts, steps] = await Promise.all([
    receiptAccountsOf(db, [orderId]),
    db.queueStep.findMany({ where: { orderId }, orderBy: { at: "asc" }, take: 50 }),
  ]);
  return {
    ...receipts.get(orderId)!,
    steps: steps.map(({ orderId: _, step, at, ackedAt, ...rest }) => ({
      ...rest,
      step: step as QueueStepName,
      at: at.toISOString(),
      ackedAt: ackedAt?.toISOString() ?? null,
    })),
  };
}
