import type { Db } from "../db/client";
import type { WorkerHooks } from "../receipts/receipt-worker";
import { spend } from "./switches";

/** The lab's switches for the receipt worker, read per order: `die` kills it for real. */
export function queueLabOn(db: Db, die: () => Promise<never>): WorkerHooks {
  const flag = async (orderId: string, name: "naiveConsumer" | "poisonMessage") =>
    (await db.labSwitches.findUnique({ where: { orderId }, select: { [name]: true } }))?.[name] === true;
  return {
    consumer: {
      naive: (orderId) => flag(orderId, "naiveConsumer"),
      poisoned: (orderId) => flag(orderId, "poisonMessage"),
      beforeAck: async (orderId) => {
        if (await spend(db, orderId, "consumerDeathsBeforeAck")) await die();
      },
    },
    publishesTwice: (orderId) => spend(db, orderId, "relayDuplicates"),
  };
}
