import type { Db } from "../db/client";
import { DomainError } from "../errors";
import type { Ledger } from "../ledger/ledger";
import { findSessionOrder } from "../orders/order-view";
import { toChargeView } from "../payments/charge-view";
import type { ChargeView } from "../payments/charge-view";

/**
 * The counter-example, for the lab's naive client only: a charge with no
 * run-once, no check of the key against the order, no check that the order is
 * still unpaid. A client that retries it with a new key per attempt pays twice
 * whenever a reply is lost; the ledger marks its charges.
 */
export async function naiveCharge(
  deps: { db: Db; ledger: Ledger; sessionId: string },
  input: { orderId: string; amountCents: number; attemptKey: string; cardNumber: string },
): Promise<ChargeView> {
  const order = await findSessionOrder(deps.db, deps.sessionId, input.orderId);
  const request = {
    orderId: order.id,
    amountCents: input.amountCents,
    idempotencyKey: input.attemptKey,
    cardNumber: input.cardNumber,
    naive: true,
  };
  const authorization = await deps.ledger.authorize(request);
  if (!authorization.approved) throw new DomainError("CARD_DECLINED", authorization.declineReason);
  return deps.db.$transaction(async (tx) => {
    const entry = await deps.ledger.record(tx, request, authorization);
    await tx.order.update({ where: { id: order.id }, data: { status: "PAID" } });
    return toChargeView(entry);
  });
}
