import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { fingerprint } from "run-once";
import type { RunOnce } from "run-once";
import type { Db, Tx } from "../db/client";
import type { Logger } from "service-kit/logger";
import { paymentSucceeded } from "./payment-succeeded";
import type { PaymentSucceeded } from "./payment-succeeded";
import { recordStep } from "./queue-account";
import type { QueueLab } from "./queue-lab";
import type { DeliveryHandler } from "./queue";

/** The receipt's key, from business identity: every delivery of any copy of the order's event carries it. */
export const receiptKey = (orderId: string) => `receipt:${orderId}`;

/** The lab's faults, and how the worker dies for them: for real, so that the queue must redeliver. */
export interface ConsumerLab {
  faults: QueueLab;
  die: () => Promise<never>;
}

/**
 * Sends a receipt per payment event: under the run-once core, so a
 * redelivered, duplicated or replayed message is answered from the key; or,
 * naive, on every delivery. The handler returns (and the queue acknowledges)
 * only after the key is completed with the receipt. Each delivery goes into
 * the worker's account, with its decision and, once made, its acknowledgement.
 */
export function receiptConsumer(deps: {
  db: Db;
  runOnce: RunOnce<Tx>;
  naive: boolean;
  ackDelayMs: number;
  maxDeliveries: number;
  logger: Logger;
  lab?: ConsumerLab;
}): DeliveryHandler {
  const { db, lab } = deps;
  return async ({ body, attempt }) => {
    const event = paymentSucceeded.parse(body); // a malformed message throws: redelivered, then dead-lettered
    const delivered = { orderId: event.orderId, eventId: event.eventId, delivery: attempt };
    let decision: string;
    try {
      decision = await settle(deps, event, attempt);
    } catch (error) {
      await recordStep(db, { ...delivered, step: "delivered", decision: "failed" });
      // The queue dead-letters a message whose last allowed delivery fails.
      if (attempt >= deps.maxDeliveries) await recordStep(db, { ...delivered, step: "dead-lettered" });
      throw error;
    }
    const step = await recordStep(db, { ...delivered, step: "delivered", decision });
    deps.logger.info({ orderId: event.orderId, attempt, decision }, "receipt settled; acknowledging");
    if (await lab?.faults.diesBeforeAck(event.orderId)) await lab!.die();
    if (deps.ackDelayMs > 0) await sleep(deps.ackDelayMs);
    await db.queueStep.update({ where: { id: step.id }, data: { ackedAt: new Date() } });
  };
}

/** Sends the receipt, or answers from the key; returns what was decided. */
async function settle(
  deps: Parameters<typeof receiptConsumer>[0],
  event: PaymentSucceeded,
  attempt: number,
): Promise<string> {
  if (await deps.lab?.faults.poisoned(event.orderId)) throw new Error("the lab made this message poison");
  if (deps.naive || (await deps.lab?.faults.naive(event.orderId))) {
    await sendReceipt(deps.db, event, attempt, true);
    return "sent naively";
  }
  const { eventId: _copy, ...intent } = event; // a republished copy has another id, the same intent
  const result = await deps.runOnce.run(
    {
      scope: { caller: "receipts", path: "receipts.send", key: receiptKey(event.orderId) },
      fingerprint: fingerprint("receipts.send", intent),
    },
    ({ commit }) => commit((tx) => sendReceipt(tx, event, attempt, false)),
  );
  deps.runOnce.unwrap(result);
  return result.decision;
}

/** The mock mailbox: a receipt is a row the ledger page shows. */
async function sendReceipt(tx: Tx, event: PaymentSucceeded, delivery: number, naive: boolean) {
  await tx.receipt.create({
    data: {
      id: `rcp_${randomUUID()}`,
      orderId: event.orderId,
      chargeId: event.chargeId,
      amountCents: event.amountCents,
      eventId: event.eventId,
      delivery,
      naive,
    },
  });
  return null;
}
