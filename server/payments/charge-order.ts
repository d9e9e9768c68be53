import type { Execution, RunOnce } from "run-once";
import type { Road } from "../account/road";
import type { Db, Tx } from "../db/client";
import type { Order } from "../db/generated/sqlite/client";
import { DomainError } from "../errors";
import type { AppMetrics } from "../observability/app-metrics";
import { findSessionOrder } from "../orders/order-view";
import { writePaymentSucceeded } from "../receipts/payment-succeeded";
import type { CallRecorder, ChargeAnswer, PaymentProvider } from "../payment-provider/payment-provider";
import { toChargeView } from "./charge-view";
import type { ChargeView } from "./charge-view";
import { newPaymentKey } from "./payment-key";

/** The key the shop sends the provider for a payment attempt: derived from the attempt's own, so every retry sends it again. */
const providerKeyOf = (paymentKey: string) => `${paymentKey}/charge`;

/** The account's run that works on a payment: the record its charge names, on the road that settles it, sending its calls. */
interface PaymentRun extends CallRecorder {
  id: string;
  road: Road;
}

/** Refuses a charge whose key or amount is not its order's: a refusal writes nothing, so it is not stored. */
export function refuseMismatch(
  order: { paymentKey: string; totalCents: number },
  key: string,
  amountCents: number,
): void {
  if (key !== order.paymentKey) {
    throw new DomainError(
      "PAYMENT_KEY_MISMATCH",
      "The idempotency key must be the order's current paymentKey (from orders.place or orders.get); a key made per try would allow a second charge.",
    );
  }
  if (amountCents !== order.totalCents) {
    throw new DomainError(
      "AMOUNT_MISMATCH",
      `amountCents is ${amountCents} but the order's total is ${order.totalCents}.`,
    );
  }
}

/** What the second hop needs besides the provider: when a re-drive must turn into a look-up. */
interface RecoveryDeps {
  provider: PaymentProvider;
  execution: Execution<Tx>;
  metrics: Pick<AppMetrics, "paymentNeedsReview">;
  /** Past this age of its first provider call, an attempt is never charged again, only looked up (see env.ts). */
  redriveCutoffMs: number;
  clock?: () => Date;
}

type ChargeDeps = RecoveryDeps & {
  db: Db;
  sessionId: string;
  runOnce: Pick<RunOnce<Tx>, "settings">;
  run: PaymentRun;
};
type ChargeInput = { orderId: string; amountCents: number; paymentMethodId: string };
/** The recovery point: the card the provider is charged with, and since when it may have been. */
type SavedCall = { paymentMethodId: string; providerCalledAt: Date };

/** Charges an order once: refusals (storing nothing), then the recovery point, then the provider and the record. */
export async function chargeOrder(deps: ChargeDeps, input: ChargeInput): Promise<ChargeView> {
  const saved = (await savedFirstTry(deps, input)) ?? (await checkedRetry(deps, input));
  try {
    return await finishPayment(deps, { ...input, ...saved, run: deps.run, paymentKey: deps.execution.key });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // Past the recovery point the provider may have charged: never "nothing happened".
    throw new DomainError(
      "PAYMENT_UNCONFIRMED",
      "The payment may have gone through: the payment provider's answer did not reach the shop. It will be confirmed or finished automatically; do not pay again.",
      { cause: error, retryAfterSeconds: 1 },
    );
  }
}

/** The recovery point, saved before the provider is called only where nothing would refuse it: one statement, no read. */
async function savedFirstTry(deps: ChargeDeps, input: ChargeInput): Promise<SavedCall | null> {
  const { key, fingerprint } = deps.execution;
  const providerCalledAt = new Date();
  const { count } = await deps.db.paymentAttempt.updateMany({
    where: {
      key,
      providerCalledAt: null,
      status: "OPEN",
      order: {
        id: input.orderId,
        sessionId: deps.sessionId,
        status: "PENDING",
        paymentKey: key,
        totalCents: input.amountCents,
      },
    },
    data: {
      paymentMethodId: input.paymentMethodId,
      requestFingerprint: fingerprint,
      providerCalledAt,
      // The completer's first look, once a client that is still retrying would have finished.
      nextTryAt: new Date(providerCalledAt.getTime() + deps.runOnce.settings.leaseMs),
    },
  });
  return count === 1 ? { paymentMethodId: input.paymentMethodId, providerCalledAt } : null;
}

/** Not a first try: refused (storing nothing), or a re-drive with the card a first try saved. */
async function checkedRetry(deps: ChargeDeps, input: ChargeInput): Promise<SavedCall> {
  const order = await findSessionOrder(deps.db, deps.sessionId, input.orderId);
  if (order.status !== "PENDING") {
    throw new DomainError("ORDER_NOT_PAYABLE", `Order ${order.id} is already ${order.status.toLowerCase()}.`);
  }
  refuseMismatch(order, deps.execution.key, input.amountCents);
  const attempt = await deps.db.paymentAttempt.findUniqueOrThrow({ where: { key: order.paymentKey } });
  if (attempt.status === "NEEDS_REVIEW") throw needsReview();
  if (!attempt.paymentMethodId || !attempt.providerCalledAt)
    throw new Error(`Payment attempt ${attempt.key} changed while it was being paid.`);
  if (attempt.paymentMethodId !== input.paymentMethodId) {
    await refuseAnotherCard(deps.provider, attempt.paymentMethodId, input.paymentMethodId);
  }
  return { paymentMethodId: attempt.paymentMethodId, providerCalledAt: attempt.providerCalledAt };
}

/** A payment under way may have charged its card: another card (by the provider's card fingerprint) is refused. */
async function refuseAnotherCard(provider: PaymentProvider, savedMethod: string, offeredMethod: string) {
  const [saved, offered] = await Promise.all([provider.cardOf(savedMethod), provider.cardOf(offeredMethod)]);
  if (saved.fingerprint === offered.fingerprint) return;
  throw new DomainError(
    "CARD_IN_USE",
    `This payment is already under way with the card •••• ${saved.last4}, and may have been charged to it. Pay again with that card to finish it; nothing was charged to the new one.`,
  );
}

/** The attempt is with a person: neither a retry nor the completer may settle it. */
function needsReview(): DomainError {
  return new DomainError(
    "PAYMENT_NEEDS_REVIEW",
    "This payment could not be confirmed automatically and is being reviewed by the shop. It may have gone through: do not pay again; the shop will settle it.",
  );
}

interface PaymentToFinish extends SavedCall {
  /** The run that finishes it: its charge names it as the run that recorded it. */
  run: PaymentRun;
  orderId: string;
  paymentKey: string;
  amountCents: number;
}

/** Charges the provider under the attempt's key (once per key, however often re-driven); past the cutoff, looks up. */
export async function finishPayment(deps: RecoveryDeps, payment: PaymentToFinish): Promise<ChargeView> {
  const now = (deps.clock ?? (() => new Date()))();
  const late = now.getTime() - payment.providerCalledAt.getTime() > deps.redriveCutoffMs;
  const answer: ChargeAnswer | null = late
    ? await lookUp(deps.provider, payment.orderId, payment.paymentKey)
    : await deps.provider.charge(payment, providerKeyOf(payment.paymentKey));
  return recordAnswer(deps, payment, answer);
}

/** Records the provider's answer (charge, decline or review) in the transaction that completes the key and the run. */
export function recordAnswer(
  deps: Pick<RecoveryDeps, "execution" | "metrics" | "clock">,
  payment: Pick<PaymentToFinish, "run" | "orderId" | "paymentKey">,
  answer: ChargeAnswer | null,
): Promise<ChargeView> {
  const now = (deps.clock ?? (() => new Date()))();
  const settledBy = payment.run.road;
  return deps.execution.commit(async (tx) => {
    const current = { id: payment.orderId, paymentKey: payment.paymentKey };
    if (answer === null) {
      await tx.paymentAttempt.update({
        where: { key: payment.paymentKey },
        data: { status: "NEEDS_REVIEW", settledBy, settledAt: now },
      });
      deps.metrics.paymentNeedsReview("no_charge_past_cutoff");
      throw needsReview();
    }
    if ("declined" in answer) {
      await openNextAttempt(tx, current, {
        cardLast4: answer.declined.cardLast4,
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
        providerKey: providerKeyOf(payment.paymentKey),
        providerRequestId: answer.charged.requestId,
        cardLast4: answer.charged.cardLast4,
        recordedBy: payment.run.id,
      },
    });
    await settleAttempt(tx, payment.paymentKey, {
      status: "SUCCEEDED",
      cardLast4: answer.charged.cardLast4,
      settledBy,
    });
    await updateCurrentOrder(tx, current, { status: "PAID" });
    await writePaymentSucceeded(tx, charge);
    return toChargeView(charge);
  });
}

/** The provider's charge of the payment, if it made one; null when it made none (or declined: it keeps no record). */
async function lookUp(provider: PaymentProvider, orderId: string, paymentKey: string) {
  const [charged] = await provider.chargesOf(orderId, paymentKey);
  return charged ? { charged } : null;
}

type CurrentOrder = Pick<Order, "id" | "paymentKey">;

/** Settles the declined attempt and opens the next one, under a new key, for another card. */
async function openNextAttempt(
  tx: Tx,
  order: CurrentOrder,
  decline: { cardLast4: string; declineReason: string; settledBy: Road },
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
  outcome: { status: "DECLINED" | "SUCCEEDED"; cardLast4: string; declineReason?: string; settledBy: Road },
) {
  return tx.paymentAttempt.update({ where: { key }, data: { ...outcome, settledAt: new Date() } });
}

/** Updates the order only as read (unpaid, under this key): only the key's holder changes it, so a miss rolls back. */
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
