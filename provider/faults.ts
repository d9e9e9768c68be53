import type { ProviderDb } from "./db/client";

/** The faults a merchant's test lab can ask for, per order. */
interface Faults {
  dropReplies: number;
  unavailable: number;
  timeouts: number;
  delayMs: number;
  decline: boolean;
}

const NO_FAULTS: Faults = { dropReplies: 0, unavailable: 0, timeouts: 0, delayMs: 0, decline: false };

export async function readFaults(db: ProviderDb, orderRef: string | null): Promise<Faults> {
  if (!orderRef) return NO_FAULTS;
  const row = await db.faultSwitches.findUnique({ where: { orderRef }, omit: { orderRef: true } });
  return row ?? NO_FAULTS;
}

export function setFaults(db: ProviderDb, orderRef: string, faults: Faults): Promise<Faults> {
  return db.faultSwitches.upsert({
    where: { orderRef },
    create: { orderRef, ...faults },
    update: faults,
    omit: { orderRef: true },
  });
}

/** Spends one unit of a counter, atomically: of two requests racing for the last unit, exactly one gets it. */
export async function spend(
  db: ProviderDb,
  orderRef: string | null,
  counter: "dropReplies" | "unavailable" | "timeouts",
): Promise<boolean> {
  if (!orderRef) return false;
  const { count } = await db.faultSwitches.updateMany({
    where: { orderRef, [counter]: { gt: 0 } },
    data: { [counter]: { decrement: 1 } },
  });
  return count === 1;
}
