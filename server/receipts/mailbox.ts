import { z } from "zod";
import type { Db } from "../db/client";

/** Per paid order of a session, the receipts the mock mailbox holds: one, or damage. */
export const mailboxOutput = z.array(
  z.object({
    orderId: z.string(),
    /** The queue gave up on the order's event: no receipt will come. */
    deadLettered: z.boolean(),
    receipts: z.array(
      z.object({
        id: z.string(),
        delivery: z.number().int(),
        naive: z.boolean(),
        createdAt: z.iso.datetime(),
      }),
    ),
  }),
);

export async function mailboxOf(db: Db, sessionId: string): Promise<z.infer<typeof mailboxOutput>> {
  const orders = await db.order.findMany({
    where: { sessionId, status: "PAID" },
    select: { id: true },
    orderBy: { createdAt: "desc" },
    take: 20,
  });
  const receipts = await db.receipt.findMany({
    where: { orderId: { in: orders.map((order) => order.id) } },
    orderBy: { createdAt: "asc" },
  });
  const dead = await db.queueStep.findMany({
    where: { orderId: { in: orders.map((order) => order.id) }, step: "dead-lettered" },
    select: { orderId: true },
  });
  return orders.map((order) => ({
    orderId: order.id,
    deadLettered: dead.some((step) => step.orderId === order.id),
    receipts: receipts
      .filter((receipt) => receipt.orderId === order.id)
      .map(({ id, delivery, naive, createdAt }) => ({
        id,
        delivery,
        naive,
        createdAt: createdAt.toISOString(),
      })),
  }));
}
