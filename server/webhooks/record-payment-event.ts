import type Stripe from "stripe";
import type { AccountedRun } from "../account/accounted-run";
import type { EventOutcome, EventTells } from "../account/webhook-deliveries";
import type { Db } from "../db/client";
import type { ChargeAnswer, PaymentProvider } from "../payment-provider/payment-provider";
import { recordAnswer } from "../payments/charge-order";
import { PAYMENT_KEYSPACE } from "../payments/keyspace";
import type { EventHandler, HandlerServices } from "./event-handler";

type PaymentIntentEvent = Extract<Stripe.Event, { data: { object: Stripe.PaymentIntent } }>;

/** Records the payment's outcome under its own key: one more road to the same record. */
export function paymentIntentHandler<E extends PaymentIntentEvent>(
  tells: EventTells,
  answerOf: (provider: PaymentProvider, event: E) => Promise<ChargeAnswer>,
): EventHandler<E> {
  return {
    tells,
    async handle(services, event, delivery) {
      const payment = await paymentOf(services.db, event.data.object.metadata.payment_key);
      if (!payment) return "not a payment of this shop's";
      if (payment.status !== "OPEN") return "already recorded";
      return recordPayment(services, event, payment, delivery, () => answerOf(services.provider, event));
    },
  };
}

/** The payment attempt under the key, if the shop's own charge (past its recovery point) made it. */
async function paymentOf(db: Db, paymentKey: string | undefined) {
  const attempt = paymentKey
    ? await db.paymentAttempt.findUnique({
        where: { key: paymentKey },
        include: { order: { select: { sessionId: true } } },
      })
    : null;
  return attempt?.requestFingerprint ? { ...attempt, requestFingerprint: attempt.requestFingerprint } : null;
}

/** Records the answer under the payment's key; its run, on the event's road, names the delivery that ran it. */
async function recordPayment(
  services: HandlerServices,
  event: PaymentIntentEvent,
  payment: NonNullable<Awaited<ReturnType<typeof paymentOf>>>,
  delivery: Pick<AccountedRun, "id" | "road">,
  answer: () => Promise<ChargeAnswer>,
): Promise<EventOutcome> {
  const scope = { caller: payment.order.sessionId, path: PAYMENT_KEYSPACE, key: payment.key };
  // On the account only when it runs: a delivery that finds the payment recorded, or shares it, is the event's.
  let run: AccountedRun | undefined;
  try {
    const result = await services.runOnce.run(
      { scope, fingerprint: payment.requestFingerprint },
      async (execution) => {
        run = services.account.arrived({
          road: delivery.road,
          scope,
          fingerprint: payment.requestFingerprint.slice(0, 12),
          body: { event: event.id, type: event.type, delivery: delivery.id },
        });
        return recordAnswer(
          { execution: run.claimed(execution), metrics: services.metrics },
          { run, orderId: payment.orderId, paymentKey: payment.key },
          await answer(),
        );
      },
    );
    run?.ended({ result });
    return result.decision === "coalesced"
      ? "shared"
      : result.decision === "replayed"
        ? "already recorded"
        : "recorded";
  } catch (error) {
    run?.ended({ error });
    throw error;
  }
}
