import type { Db } from "../db/client";
import { spend } from "../lab/switches";

/** The lab's faults for the receipt worker, per order, honoured only where the lab is on. */
export interface QueueLab {
  /** The consumer sends on every delivery, without its key. */
  naive(orderId: string): Promise<boolean>;
  /** Every delivery of the order's event fails: a poison message. */
  poisoned(orderId: string): Promise<boolean>;
  /** Spends one "die before the ack": true when this delivery's worker must die now. */
  diesBeforeAck(orderId: string): Promise<boolean>;
  /** Spends one "publish twice": true when the event must be published again. */
  publishesTwice(orderId: string): Promise<boolean>;
}

export function queueLabOn(db: Db): QueueLab {
  const flag = async (orderId: string, name: "naiveConsumer" | "poisonMessage") =>
    (await db.labSwitches.findUnique({ where: { orderId }, select: { [name]: true } }))?.[name] === true;
  return {
    naive: (orderId) => flag(orderId, "naiveConsumer"),
    poisoned: (orderId) => flag(orderId, "poisonMessage"),
    diesBeforeAck: (orderId) => spend(db, orderId, "consumerDeathsBeforeAck"),
    publishesTwice: (orderId) => spend(db, orderId, "relayDuplicates"),
  };
}
