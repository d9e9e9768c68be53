import type { Db } from "../db/client";

export interface LabSwitchState {
  dropReplies: number;
  failuresBeforeCommit: number;
  stallsBeforeCommit: number;
  ledgerDelayMs: number;
  decline: boolean;
  naiveClient: boolean;
}

export const SWITCHES_OFF: LabSwitchState = {
  dropReplies: 0,
  failuresBeforeCommit: 0,
  stallsBeforeCommit: 0,
  ledgerDelayMs: 0,
  decline: false,
  naiveClient: false,
};

export async function readSwitches(db: Db, orderId: string): Promise<LabSwitchState> {
  const row = await db.labSwitches.findUnique({ where: { orderId } });
  return row ?? SWITCHES_OFF;
}

/**
 * Spends one unit of a counter, atomically: of two attempts racing for the
 * last unit, exactly one gets it.
 */
export async function spend(
  db: Db,
  orderId: string,
  counter: "dropReplies" | "failuresBeforeCommit" | "stallsBeforeCommit",
): Promise<boolean> {
  const { count } = await db.labSwitches.updateMany({
    where: { orderId, [counter]: { gt: 0 } },
    data: { [counter]: { decrement: 1 } },
  });
  return count === 1;
}
