import type { Db } from "../db/client";
import { DomainError } from "../errors";
import { findSessionOrder } from "../orders/order-view";
import type { PaymentProvider } from "../payment-provider/payment-provider";
import { toChargeView } from "../payments/charge-view";
import type { ChargeView } from "../payments/charge-view";

/** The naive client's counter-example: no run-once, no order checks, the browser's key to the provider. */
export async function naiveCharge(
  deps: { db: Db; provider: PaymentProvider; sessionId: string },
  input: { orderId: string; amountCents: number; attemptKey: string; cardNumber: string },
): Promise<ChargeView> {
  const order = await findSessionOrder(deps.db, deps.sessionId, input.orderId);
  const card = await deps.provider.saveCard(input.cardNumber);
  const providerKey = `${input.attemptKey}/charge`;
  const answer = await deps.provider.charge(
    { amountCents: input.amountCents, paymentMethodId: card.paymentMethodId, orderId: order.id },
    providerKey,
  );
  if ("declined" in answer) throw new DomainError("CARD_DECLINED", answer.declined.reason);
  return deps.db.$transaction(async (tx) => {
    const charge = await tx.charge.create({
      data: {
        id: answer.charged.id,
        orderId: order.id,
        amountCents: answer.charged.amountCents,
        idempotencyKey: input.attemptKey,
        providerKey,
        cardLast4: answer.charged.cardLast4,
        naive: true,
      },
    });
    await tx.order.update({ where: { id: order.id }, data: { status: "PAID" } });
    return toChargeView(charge);
  });
}
