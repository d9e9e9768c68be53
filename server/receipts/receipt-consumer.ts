import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { fingerprint } from "run-once";
import type { RunOnce } from "run-once";
import type { Db, Tx } from "../db/client";
import type { Logger } from "service-kit/logger";
import { paymentSucceeded } from "./payment-succeeded";
import type { PaymentSucceeded } from "./payment-succeeded";
import type { DeliveryHandler } from "./queue";

/** The receipt's key, from business identity: every delivery of any copy of the order's event carries it. */
export const receiptKey = (orderId: string) => `receipt:${orderId}`;

/**
 * Sends a receipt per payment event: under the run-once core, so a
 * redelivered, duplicated or replayed message is answered from the key; or,
 * naive, on every delivery. The handler returns (and the queue acknowledges)
 * only after the key is completed with the receipt.
 */
export function receiptConsumer(deps: {
  db: Db;
  runOnce: RunOnce<Tx>;
  naive: boolean;
  ackDelayMs: number;
  logger: Logger;
}): DeliveryHandler {
  return async ({ body, attempt }) => {
    const event = paymentSucceeded.parse(body); // a malformed message throws: redelivered, then dead-lettered
    let decision = "sent naively";
    if (deps.naive) {
      await sendReceipt(deps.db, event, attempt, true);
    } else {
      const { eventId: _copy, ...intent } = event; // a republished copy has another id, the same intent
      const result = await deps.runOnce.run(
        {
          scope: { caller: "receipts", path: "receipts.send", key: receiptKey(event.orderId) },
          fingerprint: fingerprint("receipts.send", intent),
        },
        ({ commit }) => commit((tx) => sendReceipt(tx, event, attempt, false)),
      );
      deps.runOnce.unwrap(result);
      decision = result.decision;
    }
    deps.logger.info({ orderId: event.orderId, attempt, decision }, "receipt settled; acknowledging");
    if (deps.ackDelayMs > 0) await sleep(deps.ackDelayMs);
  };
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
