import type { RunOnce } from "run-once";
import type { Db, Tx } from "../db/client";
import { KEY_STATE_OF_DECISION } from "../account/request-recorder";
import type { EventOutcome } from "../account/webhook-deliveries";
import type { RequestRecorder } from "../account/request-recorder";
import type { AppMetrics } from "../observability/app-metrics";
import type { ChargeAnswer, PaymentProvider } from "../payment-provider/payment-provider";
import { paymentKeyOf, recordAnswer } from "../payments/charge-order";
import { PAYMENT_KEYSPACE } from "../payments/keyspace";
import type { PaymentEvent } from "./verified-event";

/** The payment an event tells of, by the shop's key in its metadata; null for a payment not of this shop's. */
export async function paymentOfEvent(db: Db, event: PaymentEvent) {
  const paymentKey = paymentKeyOf(event.data.object.metadata.idempotency_key ?? "");
  const attempt = paymentKey
    ? await db.paymentAttempt.findUnique({
        where: { key: paymentKey },
        include: { order: { select: { sessionId: true } } },
      })
    : null;
  // The lab's naive and pitfall charges use keys of their own, and record themselves.
  return attempt?.requestFingerprint ? { ...attempt, requestFingerprint: attempt.requestFingerprint } : null;
}

export type EventPayment = NonNullable<Awaited<ReturnType<typeof paymentOfEvent>>>;

/**
 * Records the payment an event tells of, as one more road to the same record
 * as the customer's retry and the completer: under the payment's own key, so
 * whichever comes first records it and the others replay it. A key another
 * road holds is waited for; the answer is the provider's own, fetched again
 * rather than read from the event. Its run names the delivery that ran it.
 */
export async function recordPaymentEvent(
  deps: {
    provider: PaymentProvider;
    runOnce: RunOnce<Tx>;
    metrics: Pick<AppMetrics, "paymentNeedsReview">;
    account: { recorder: Pick<RequestRecorder, "arrived">; instance: string };
  },
  event: PaymentEvent,
  payment: EventPayment,
  deliveryId: string,
): Promise<EventOutcome> {
  if (payment.status !== "OPEN") return "already recorded";
  const scope = { caller: payment.order.sessionId, path: PAYMENT_KEYSPACE, key: payment.key };
  const result = await deps.runOnce.run(
    { scope, fingerprint: payment.requestFingerprint },
    async (execution) => {
      // On the account only when it runs, so the charge it records names a record of it.
      const run = deps.account.recorder.arrived({
        scope,
        instance: deps.account.instance,
        fingerprint: payment.requestFingerprint.slice(0, 12),
        body: { event: event.id, type: event.type, delivery: deliveryId },
        sentBy: "webhook",
      });
      const ended = {
        status: null,
        retryAfterSeconds: null,
        keyExpiresAt: null,
        generation: execution.generation,
      };
      try {
        const answer = await answerOf(deps.provider, event);
        const recorded = await recordAnswer(
          { execution, metrics: deps.metrics },
          { madeBy: run.id, orderId: payment.orderId, paymentKey: payment.key },
          answer,
          "webhook",
        );
        run.end({
          ...ended,
          decision: execution.decision,
          keyState: KEY_STATE_OF_DECISION[execution.decision],
        });
        return recorded;
      } catch (error) {
        run.end({ ...ended, decision: "released", keyState: null });
        throw error;
      }
    },
  );
  return result.decision === "coalesced"
    ? "shared"
    : result.decision === "replayed"
      ? "already recorded"
      : "recorded";
}

/** The provider's answer for the event's PaymentIntent: its charge, fetched from the provider, or its decline. */
async function answerOf(provider: PaymentProvider, event: PaymentEvent): Promise<ChargeAnswer> {
  const intent = event.data.object;
  if (event.type === "payment_intent.payment_failed") {
    const error = intent.last_payment_error;
    return {
      declined: {
        reason: error?.message ?? "The card was declined.",
        cardLast4: error?.payment_method?.card?.last4 ?? "",
      },
    };
  }
  const charged = await provider.chargeOfIntent(intent.id);
  if (!charged)
    throw new Error(`The provider shows no charge for ${intent.id}, which its event says succeeded.`);
  return { charged };
}
