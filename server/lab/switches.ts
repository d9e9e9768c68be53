import type { z } from "zod";
import type { Db } from "../db/client";
import type { shopSwitchesSchema } from "../trpc/schemas/lab";

export type ShopSwitches = z.infer<typeof shopSwitchesSchema>;

export const SWITCHES_OFF: ShopSwitches = {
  dropReplies: 0,
  failuresBeforeCommit: 0,
  stallsBetweenHops: 0,
  naiveClient: false,
  naiveProviderCalls: false,
};

export async function readSwitches(db: Db, orderId: string): Promise<ShopSwitches> {
  const row = await db.labSwitches.findUnique({ where: { orderId }, omit: { orderId: true } });
  return row ?? SWITCHES_OFF;
}

export function setSwitches(db: Db, orderId: string, switches: Partial<ShopSwitches>): Promise<ShopSwitches> {
  return db.labSwitches.upsert({
    where: { orderId },
    create: { orderId, ...switches },
    update: switches,
    omit: { orderId: true },
  });
}

/**
 * Spends one unit of a counter, atomically: of two attempts racing for the
 * last unit, exactly one gets it.
 */
export async function spend(
  db: Db,
  orderId: string,
  counter: "dropReplies" | "failuresBeforeCommit" | "stallsBetweenHops",
): Promise<boolean> {
  const { count } = await db.labSwitches.updateMany({
    where: { orderId, [counter]: { gt: 0 } },
    data: { [counter]: { decrement: 1 } },
  });
  return count === 1;
}
