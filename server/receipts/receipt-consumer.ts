import { randomUUID } from "node:crypto";
import { fingerprint } from "run-once";
import type { RunOnce } from "run-once";
import type { Account, AccountedRun } from "../account/accounted-run";
import type { Db, Tx } from "../db/client";
import type { Logger } from "service-kit/logger";
import { paymentSucceeded } from "./payment-succeeded";
import type { PaymentSucceeded } from "./payment-succeeded";
import { recordStep } from "./queue-account";
import type { DeliveryHandler } from "./queue";

/** The receipt's key, from business identity: every delivery of any copy of the order's event carries it. */
export const receiptKey = (orderId: string) => `receipt:${orderId}`;

/** Counter-examples and faults at the consumer's edges, from the lab or a test. */
export interface ConsumerHooks {
  /** Sends on every delivery, without the run-once key: the counter-example. */
  naive?(orderId: string): Promise<boolean>;
  /** Every delivery of the order's event fails: a poison message. */
  poisoned?(orderId: string): Promise<boolean>;
  /** Runs once the receipt is settled and before the ack: where the lab's worker dies, the window a crash test aims at. */
  beforeAck?(orderId: string): Promise<void>;
}

/** The delivery in hand: its step's id (named before it settles), the queue's count of it, the process. */
interface DeliveryInHand {
  id: string;
  number: number;
  pid: number;
}

/** A receipt per payment event under run-once, acked only once its key completed; or naive. */
export function receiptConsumer(deps: {
  db: Db;
  runOnce: RunOnce<Tx>;
  /** Where each run under a receipt's key is recorded, with the receipt it sends. */
  account: Pick<Account, "arrived">;
  maxDeliveries: number;
  logger: Logger;
  hooks?: ConsumerHooks;
}): DeliveryHandler {
  const { db, hooks } = deps;
  return async ({ body, count }) => {
    const event = paymentSucceeded.parse(body); // a malformed message throws: redelivered, then dead-lettered
    const delivery: DeliveryInHand = { id: `qs_${randomUUID()}`, number: count, pid: process.pid };
    const about = { orderId: event.orderId, eventId: event.eventId, delivery: count };
    let decision: string;
    try {
      decision = await settle(deps, event, delivery);
    } catch (error) {
      await recordStep(db, { ...about, id: delivery.id, step: "delivered", decision: "failed" });
      // The queue dead-letters a message whose last allowed delivery fails.
      if (count >= deps.maxDeliveries) await recordStep(db, { ...about, step: "dead-lettered" });
      throw error;
    }
    await recordStep(db, { ...about, id: delivery.id, step: "delivered", decision });
    deps.logger.info(
      { orderId: event.orderId, delivery: count, deliveryId: delivery.id, decision },
      "receipt settled; acknowledging",
    );
    await hooks?.beforeAck?.(event.orderId);
    await db.queueStep.update({ where: { id: delivery.id }, data: { ackedAt: new Date() } });
  };
}

/** Sends the receipt, or answers from the key; returns what was decided. */
async function settle(
  deps: Parameters<typeof receiptConsumer>[0],
  event: PaymentSucceeded,
  delivery: DeliveryInHand,
): Promise<string> {
  if (await deps.hooks?.poisoned?.(event.orderId)) throw new Error("this message was made poison");
  if (await deps.hooks?.naive?.(event.orderId)) {
    await sendReceipt(deps.db, event, delivery, true);
    return "sent naively";
  }
  const { eventId: _copy, ...intent } = event; // a republished copy has another id, the same intent
  const scope = { caller: "receipts", path: "receipts.send", key: receiptKey(event.orderId) };
  const run: AccountedRun = deps.account.arrived({
    road: "receipt worker",
    scope,
    fingerprint: "",
    body: { event: event.eventId, delivery: delivery.number },
  });
  try {
    const result = await deps.runOnce.run(
      { scope, fingerprint: fingerprint("receipts.send", intent) },
      (execution) => run.claimed(execution).commit((tx) => sendReceipt(tx, event, delivery, false)),
    );
    run.ended({ result });
    deps.runOnce.unwrap(result);
    return result.decision;
  } catch (error) {
    run.ended({ error });
    throw error;
  }
}

/** The mock mailbox: a receipt is a row the ledger page shows, and it names the delivery that sent it. */
async function sendReceipt(tx: Tx, event: PaymentSucceeded, delivery: DeliveryInHand, naive: boolean) {
  await tx.receipt.create({
    data: {
      id: `rcp_${randomUUID()}`,
      orderId: event.orderId,
      chargeId: event.chargeId,
      amountCents: event.amountCents,
      eventId: event.eventId,
      deliveryId: delivery.id,
      delivery: delivery.number,
      pid: delivery.pid,
      naive,
    },
  });
  return null;
}
