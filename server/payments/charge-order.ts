import type { Execution } from "~/packages/run-once";
import type { Db, Tx } from "../db/client";
import { DomainError } from "../errors";
import type { Ledger } from "../ledger/ledger";
import { findSessionOrder } from "../orders/order-view";
import { toChargeView } from "./charge-view";
import type { ChargeView } from "./charge-view";
import { newPaymentKey } from "./payment-key";

/**
 * Charges an order once. Runs inside the run-once middleware, so it never sees
 * a duplicate of a key it already handled; it still refuses any key but the
 * order's current one, so that a client minting a key per attempt gets an
 * error instead of a second charge.
 *
 * The refusals come first and write nothing, so they are not stored: the
 * same key with a corrected request runs normally. Only what the transaction
 * decides is stored: the charge, or a decline, which settles this attempt and
 * opens the next one under a new key, so the customer can try another card.
 */
export async function chargeOrder(
  deps: { db: Db; ledger: Ledger; sessionId: string; runOnce: Execution<Tx> },
  input: { orderId: string; amountCents: number; cardNumber: string },
): Promise<ChargeView> {
  const order = await findSessionOrder(deps.db, deps.sessionId, input.orderId);
  if (order.status !== "PENDING") {
    throw new DomainError("ORDER_NOT_PAYABLE", `Order ${order.id} is already ${order.status.toLowerCase()}.`);
  }
  if (deps.runOnce.key !== order.paymentKey) {
    throw new DomainError(
      "PAYMENT_KEY_MISMATCH",
      "The idempotency key must be the order's current paymentKey (from orders.place or orders.get); a key made per attempt would allow a second charge.",
    );
  }
  if (input.amountCents !== order.totalCents) {
    throw new DomainError(
      "AMOUNT_MISMATCH",
      `amountCents is ${input.amountCents} but the order's total is ${order.totalCents}.`,
    );
  }

  const request = { ...input, idempotencyKey: order.paymentKey };
  const authorization = await deps.ledger.authorize(request);
  return deps.runOnce.commit(async (tx) => {
    if (!authorization.approved) {
      await openNextAttempt(tx, order, authorization);
      throw new DomainError("CARD_DECLINED", authorization.declineReason);
    }
    const entry = await deps.ledger.record(tx, request, authorization);
    await settleAttempt(tx, order.paymentKey, { status: "SUCCEEDED", cardLast4: authorization.cardLast4 });
    await updateCurrentOrder(tx, order, { status: "PAID" });
    return toChargeView(entry);
  });
}

interface CurrentOrder {
  id: string;
  paymentKey: string;
}

/** Settles the declined attempt and opens the next one, under a new key, for another card. */
async function openNextAttempt(
  tx: Tx,
  order: CurrentOrder,
  decline: { cardLast4: string; declineReason: string },
): Promise<void> {
  await settleAttempt(tx, order.paymentKey, {
    status: "DECLINED",
    cardLast4: decline.cardLast4,
    declineReason: decline.declineReason,
  });
  const nextKey = newPaymentKey();
  await tx.paymentAttempt.create({ data: { key: nextKey, orderId: order.id } });
  await updateCurrentOrder(tx, order, { paymentKey: nextKey });
}

function settleAttempt(
  tx: Tx,
  key: string,
  outcome: { status: "DECLINED" | "SUCCEEDED"; cardLast4: string; declineReason?: string },
) {
  return tx.paymentAttempt.update({ where: { key }, data: { ...outcome, settledAt: new Date() } });
}

/**
 * Updates the order only as it was read (unpaid, under this key): only the
 * key's holder changes it, so a miss means something is badly wrong, and the
 * transaction rolls back.
 */
async function updateCurrentOrder(
  tx: Tx,
  order: CurrentOrder,
  data: { status?: "PAID"; paymentKey?: string },
): Promise<void> {
  const { count } = await tx.order.updateMany({
    where: { id: order.id, paymentKey: order.paymentKey, status: "PENDING" },
    data,
  });
  if (count !== 1) throw new Error(`Order ${order.id} changed while it was being paid.`);
}
