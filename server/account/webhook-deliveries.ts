import { z } from "zod";
import type { RunResult } from "run-once";
import { KEY_STATE_OF_DECISION } from "./request-recorder";
import type { RequestEnding, RequestRecord, RequestRecorder } from "./request-recorder";

/** Where the account keeps the provider's webhook deliveries: under their order (kept as long as it is), each under its event's id. */
export const WEBHOOK_DELIVERIES_PATH = "payment provider webhook deliveries";

/**
 * What handling an event did for its payment, stored under the event's id: recorded it (a run under
 * the payment's key), found it recorded, or waited for the run that held the payment's key and shared it.
 */
export const EVENT_OUTCOMES = ["recorded", "already recorded", "shared"] as const;
export type EventOutcome = (typeof EVENT_OUTCOMES)[number];

/** Why a delivery was not answered 2xx: the payment's key stayed held past the wait bound, or the handling failed. */
const NOT_HANDLED = ["payment key held", "failed"] as const;

/** What a delivery came to, in the account's words. */
export const DELIVERY_OUTCOMES = [...EVENT_OUTCOMES, ...NOT_HANDLED] as const;

/** What a delivery's record keeps beside its answer. */
const deliveryBody = z.object({
  event: z.string(),
  type: z.string(),
  /** The payment the event tells of. */
  paymentKey: z.string(),
  outcome: z.enum(DELIVERY_OUTCOMES).nullable(),
});
type DeliveryBody = z.infer<typeof deliveryBody>;

/**
 * Writes a delivery of the provider's webhook into its order's account, in
 * flight on arrival, then how the event's key answered it and what the
 * handling did for the payment.
 */
export function recordDelivery(
  account: { recorder: Pick<RequestRecorder, "arrived">; instance: string },
  delivery: { orderId: string; event: { id: string; type: string }; paymentKey: string },
) {
  const sent: DeliveryBody = {
    event: delivery.event.id,
    type: delivery.event.type,
    paymentKey: delivery.paymentKey,
    outcome: null,
  };
  const record = account.recorder.arrived({
    scope: { caller: delivery.orderId, path: WEBHOOK_DELIVERIES_PATH, key: delivery.event.id },
    instance: account.instance,
    fingerprint: "",
    body: sent,
    sentBy: "webhook",
  });
  return {
    id: record.id,
    answered(result: RunResult, outcome: EventOutcome) {
      record.end(
        {
          decision: result.decision,
          keyState: KEY_STATE_OF_DECISION[result.decision],
          generation: result.generation,
          status: 200,
          retryAfterSeconds: null,
          keyExpiresAt: result.expiresAt,
        },
        { ...sent, outcome },
      );
    },
    refused(
      ending: Pick<RequestEnding, "decision" | "status" | "retryAfterSeconds" | "generation">,
      outcome: (typeof NOT_HANDLED)[number] | null,
    ) {
      record.end({ ...ending, keyState: null, keyExpiresAt: null }, { ...sent, outcome });
    },
  };
}

export type DeliveryRecord = ReturnType<typeof recordDelivery>;

/** A delivery as the account recorded it: the event, how its key answered, and what it did for the payment. */
export function webhookDeliveryOf(record: RequestRecord) {
  return {
    id: record.id,
    at: record.at.toISOString(),
    instance: record.instance,
    ...deliveryBody.parse(record.body),
    decision: record.decision,
    status: record.status,
    durationMs: Math.round(record.durationMs),
  };
}
