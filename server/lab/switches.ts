import type { z } from "zod";
import type { Db } from "../db/client";
import { allSwitchedOff } from "service-kit/lab/provider-faults";
import { shopSwitchesSchema } from "./schemas";

export type ShopSwitches = z.infer<typeof shopSwitchesSchema>;

const SWITCHES_OFF = allSwitchedOff(shopSwitchesSchema);

export async function readSwitches(db: Db, orderId: string): Promise<ShopSwitches> {
  const row = await db.labSwitches.findUnique({ where: { orderId }, omit: { orderId: true } });
  // The database keeps the broken rule as text: read back, it is checked against the rules there are.
  return row ? shopSwitchesSchema.parse(row) : SWITCHES_OFF;
}

export async function setSwitches(db: Db, orderId: string, switches: Partial<ShopSwitches>) {
  const row = await db.labSwitches.upsert({
    where: { orderId },
    create: { orderId, ...switches },
    update: switches,
    omit: { orderId: true },
  });
  return shopSwitchesSchema.parse(row);
}

/** Spends one unit of a counter atomically: of two racing tries, one gets the last unit. */
export async function spend(
  db: Db,
  orderId: string,
  counter: { [K in keyof ShopSwitches]: ShopSwitches[K] extends number ? K : never }[keyof ShopSwitches],
): Promise<boolean> {
  const { count } = await db.labSwitches.updateMany({
    where: { orderId, [counter]: { gt: 0 } },
    data: { [counter]: { decrement: 1 } },
  });
  return count === 1;
}
