import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Db } from "../db/client";

/** What the worker records of a message: its publication, each delivery, its dead-lettering. */
export type QueueStepName = "published" | "delivered" | "dead-lettered";

/** The worker's own account, step by step, as the queue lane draws it. */
export function recordStep(
  db: Db,
  step: {
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

export const queueAccountOutput = z.array(
  z.object({
    id: z.string(),
    eventId: z.string(),
    step: z.enum(["published", "delivered", "dead-lettered"]),
    delivery: z.number().int().nullable(),
    decision: z.string().nullable(),
    pid: z.number().int().nullable(),
    at: z.iso.datetime(),
    ackedAt: z.iso.datetime().nullable(),
  }),
);
export type QueueAccount = z.infer<typeof queueAccountOutput>;

/** An order's steps, in the order they happened. */
export async function queueAccountOf(db: Db, orderId: string): Promise<QueueAccount> {
  const steps = await db.queueStep.findMany({ where: { orderId }, orderBy: { at: "asc" }, take: 50 });
  return steps.map(({ id, eventId, step, delivery, decision, pid, at, ackedAt }) => ({
    id,
    eventId,
    step: step as QueueStepName,
    delivery,
    decision,
    pid,
    at: at.toISOString(),
    ackedAt: ackedAt?.toISOString() ?? null,
  }));
}
