import { z } from "zod";
import type { Db } from "../db/client";
import { receiptAccountOutput, receiptAccountsOf } from "./queue-account";

/** Per paid order of a session, what the mock mailbox holds for it and what its receipt comes from. */
export const mailboxOutput = z.array(z.object({ orderId: z.string(), account: receiptAccountOutput }));

export async function mailboxOf(db: Db, sessionId: string): Promise<z.infer<typeof mailboxOutput>> {
  const orders = await db.order.findMany({
    where: { sessionId, status: "PAID" },
    select: { id: true },
    orderBy: { createdAt: "desc" },
    take: 20,
  });
  const accounts = await receiptAccountsOf(
    db,
    orders.map((order) => order.id),
  );
  return orders.map((order) => ({ orderId: order.id, account: accounts.get(order.id)! }));
}
