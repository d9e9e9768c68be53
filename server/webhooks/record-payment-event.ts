import type { RunOnce } from "run-once";
import type { Db, Tx } from "../db/client";
import { KEY_STATE_OF_DECISION } from "../account/request-recorder";
import type { RequestRecorder } from "../account/request-recorder";
import type { AppMetrics } from "../observability/app-metrics";
import type { ChargeAnswer, PaymentProvider } from "../payment-provider/payment-provider";
import { paymentKeyOf, recordAnswer } from "../payments/charge-order";
import { PAYMENT_KEYSPACE } from "../payments/keyspace";
import type { PaymentEvent } from "./verified-event";

/** What the webhook did with an event: stored under the event's id and answered to every delivery of it. */
export interface EventOutcome {
  outcome: "recorded" | "already recorded" | "not a payment of this shop's";
}

/**
 * Records the payment an event tells of, as one more road to the same record
 * as the customer's retry and the completer: under the payment's own key, so
 * whichever comes first records it and the others replay it. A key another
 * road holds is waited for; the answer is the provider's own, fetched again
 * rather than read from the event.
 */
export async function recordPaymentEvent(
  deps: {
    db: Db;
    provider: PaymentProvider;
    runOnce: RunOnce<Tx>;
    metrics: Pick<AppMetrics, "paymentNeedsReview">;
    account: { recorder: Pick<RequestRecorder, "arrived">; instance: string };
  },
  event: PaymentEvent,
): Promise<EventOutcome> {
  const intent = event.data.object;
  const paymentKey = paymentKeyOf(intent.metadata.idempotency_key ?? "");
  const attempt = paymentKey
    ? await deps.db.paymentAttempt.findUnique({
        where: { key: paymentKey },
        include: { order: { select: { sessionId: true } } },
      })
    : null;
  // The lab's naive and pitfall charges use keys of their own, and record themselves.
  const requestFingerprint = attempt?.requestFingerprint;
  if (!attempt || !requestFingerprint) return { outcome: "not a payment of this shop's" };
  if (attempt.status !== "OPEN") return { outcome: "already recorded" };
  const scope = { caller: attempt.order.sessionId, path: PAYMENT_KEYSPACE, key: attempt.key };
  const result = await deps.runOnce.run({ scope, fingerprint: requestFingerprint }, async (execution) => {
    // On the account only when it runs, so the charge it records names a record of it.
    const run = deps.account.recorder.arrived({
      scope,
      instance: deps.account.instance,
      fingerprint: requestFingerprint.slice(0, 12),
      body: { event: event.id, type: event.type },
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
        { madeBy: run.id, orderId: attempt.orderId, paymentKey: attempt.key },
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
  });
  const ran =
    result.decision === "executed" || result.decision === "expired" || result.decision === "taken_over";
  return { outcome: ran ? "recorded" : "already recorded" };
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
