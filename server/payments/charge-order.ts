import type { Execution } from "run-once";
import type { Db, Tx } from "../db/client";
import { DomainError } from "../errors";
import { findSessionOrder } from "../orders/order-view";
import { writePaymentSucceeded } from "../receipts/payment-succeeded";
import type { PaymentProvider } from "../payment-provider/payment-provider";
import { toChargeView } from "./charge-view";
import type { ChargeView } from "./charge-view";
import { newPaymentKey } from "./payment-key";

/** The key the shop sends the provider for a payment attempt: derived from the attempt's own, so every retry sends it again. */
function providerKeyOf(paymentKey: string): string {
  return `${paymentKey}/charge`;
}

/**
 * Charges an order once, in two hops. Runs inside the run-once middleware, so
 * it never sees a duplicate of a key it already handled; it still refuses any
 * key but the order's current one, so that a client minting a key per attempt
 * gets an error instead of a second charge.
 *
 * 1. Refusals first: they write nothing, so they are not stored.
 * 2. The recovery point: the card is saved at the provider and the attempt
 *    records that the provider is being called, with what a recovery needs.
 * 3. The second hop and the record (finishPayment): the provider is charged
 *    under a key derived from the attempt's, then the charge is recorded and
 *    the key completed in one local transaction.
 */
export async function chargeOrder(
  deps: { db: Db; provider: PaymentProvider; sessionId: string; execution: Execution<Tx> },
  input: { orderId: string; amountCents: number; cardNumber: string },
): Promise<ChargeView> {
  const order = await findSessionOrder(deps.db, deps.sessionId, input.orderId);
  if (order.status !== "PENDING") {
    throw new DomainError("ORDER_NOT_PAYABLE", `Order ${order.id} is already ${order.status.toLowerCase()}.`);
  }
  if (deps.execution.key !== order.paymentKey) {
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
  const card = await recoveryPoint(deps, order.paymentKey, input.cardNumber);
  return finishPayment(deps, {
    orderId: order.id,
    paymentKey: order.paymentKey,
    amountCents: order.totalCents,
    ...card,
  });
}

/**
 * The attempt's recovery point, written before the provider is called: the
 * card saved at the provider (its token, never its number) and the request's
 * fingerprint. From then on the provider may have charged, and a retry or the
 * background completer re-drives it with the same key. A retry of the same
 * attempt finds the card saved already.
 */
async function recoveryPoint(
  deps: { db: Db; provider: PaymentProvider; execution: Execution<Tx> },
  paymentKey: string,
  cardNumber: string,
): Promise<{ paymentMethodId: string; cardLast4: string }> {
  const attempt = await deps.db.paymentAttempt.findUniqueOrThrow({ where: { key: paymentKey } });
  if (attempt.paymentMethodId && attempt.cardLast4) {
    return { paymentMethodId: attempt.paymentMethodId, cardLast4: attempt.cardLast4 };
  }
  const card = await deps.provider.saveCard(cardNumber);
  await deps.db.paymentAttempt.update({
    where: { key: paymentKey },
    data: { ...card, requestFingerprint: deps.execution.fingerprint, providerCalledAt: new Date() },
  });
  return card;
}

interface PaymentToFinish {
  orderId: string;
  paymentKey: string;
  amountCents: number;
  paymentMethodId: string;
  cardLast4: string;
}

/**
 * The second hop and the record, from the recovery point on: a client's
 * request runs it, and so does the background completer for a payment its
 * client never came back for. The provider answers once per key, so re-driving
 * it after any crash gets the same charge, never a second one.
 */
export async function finishPayment(
  deps: { provider: PaymentProvider; execution: Execution<Tx> },
  payment: PaymentToFinish,
  settledBy: "client" | "completer" = "client",
): Promise<ChargeView> {
  const providerKey = providerKeyOf(payment.paymentKey);
  const answer = await deps.provider.charge(
    { amountCents: payment.amountCents, paymentMethodId: payment.paymentMethodId, orderId: payment.orderId },
    providerKey,
  );
  return deps.execution.commit(async (tx) => {
    const current = { id: payment.orderId, paymentKey: payment.paymentKey };
    if ("declined" in answer) {
      await openNextAttempt(tx, current, {
        cardLast4: payment.cardLast4,
        declineReason: answer.declined.reason,
        settledBy,
      });
      throw new DomainError("CARD_DECLINED", answer.declined.reason);
    }
    const charge = await tx.charge.create({
      data: {
        id: answer.charged.id,
        orderId: payment.orderId,
        amountCents: answer.charged.amountCents,
        idempotencyKey: payment.paymentKey,
        providerKey,
        cardLast4: answer.charged.cardLast4,
      },
    });
    await settleAttempt(tx, payment.paymentKey, {
      status: "SUCCEEDED",
      cardLast4: payment.cardLast4,
      settledBy,
    });
    await updateCurrentOrder(tx, current, { status: "PAID" });
    await writePaymentSucceeded(tx, charge);
    return toChargeView(charge);
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
  decline: { cardLast4: string; declineReason: string; settledBy: string },
): Promise<void> {
  await settleAttempt(tx, order.paymentKey, { status: "DECLINED", ...decline });
  const nextKey = newPaymentKey();
  await tx.paymentAttempt.create({ data: { key: nextKey, orderId: order.id } });
  await updateCurrentOrder(tx, order, { paymentKey: nextKey });
}

/** Records how an attempt ended, on the attempt's row, in the transaction that records its charge or decline. */
export function settleAttempt(
  tx: Tx,
  key: string,
  outcome: { status: "DECLINED" | "SUCCEEDED"; cardLast4: string; declineReason?: string; settledBy: string },
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
