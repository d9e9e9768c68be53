import type { Db } from "../db/client";
import { DomainError } from "../errors";
import type { KeyTransaction } from "../idempotency/coordinator";
import type { Ledger } from "../ledger/ledger";
import { findSessionOrder } from "../orders/order-view";
import { toChargeView } from "./charge-view";
import type { ChargeView } from "./charge-view";

/**
 * Charges an order once. Runs inside the run-once middleware, so it never sees
 * a duplicate of a key it already handled; it still refuses any key but the
 * order's own, so that a client minting a key per attempt gets an error
 * instead of a second charge.
 */
export async function chargeOrder(
  deps: { db: Db; ledger: Ledger; sessionId: string; runOnce: KeyTransaction },
  input: { orderId: string; amountCents: number; cardNumber: string },
): Promise<ChargeView> {
  const order = await findSessionOrder(deps.db, deps.sessionId, input.orderId);
  if (deps.runOnce.key !== order.paymentKey) {
    throw new DomainError(
      "PAYMENT_KEY_MISMATCH",
      "The idempotency key must be the order's paymentKey (from orders.place or orders.get); a key made per attempt would allow a second charge.",
    );
  }
  if (input.amountCents !== order.totalCents) {
    throw new DomainError(
      "AMOUNT_MISMATCH",
      `amountCents is ${input.amountCents} but the order's total is ${order.totalCents}.`,
    );
  }
  if (order.status !== "PENDING") {
    throw new DomainError("ORDER_NOT_PAYABLE", `Order ${order.id} is already ${order.status.toLowerCase()}.`);
  }

  const request = { ...input, idempotencyKey: order.paymentKey };
  const authorization = await deps.ledger.authorize(request);
  return deps.runOnce.commit(async (tx) => {
    if (!authorization.approved) {
      await tx.order.update({ where: { id: order.id }, data: { status: "DECLINED" } });
      throw new DomainError("CARD_DECLINED", authorization.declineReason);
    }
    const entry = await deps.ledger.record(tx, request, authorization);
    await tx.order.update({ where: { id: order.id }, data: { status: "PAID" } });
    return toChargeView(entry);
  });
}
