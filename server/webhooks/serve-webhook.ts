import { KeyInProgressError, RunOnceError, fingerprint } from "run-once";
import { resultHeaders } from "run-once/http";
import { logger } from "service-kit/logger";
import { recordDelivery } from "../account/webhook-deliveries";
import type { DeliveryRecord, EventOutcome } from "../account/webhook-deliveries";
import type { RequestEnding } from "../account/request-recorder";
import type { AppServices } from "../services";
import { paymentOfEvent, recordPaymentEvent } from "./record-payment-event";
import { WebhookRefusal, verifiedEvent } from "./verified-event";

/** The name event keys are stored under: one key per event id, whoever delivers it. */
export const WEBHOOK_KEYSPACE = "payment provider webhook";

/**
 * The provider's webhook endpoint. Each event is handled once per event id
 * (the key from business identity, as the guide has it for a queue's
 * messages) under the run-once core, and answered 2xx only once its key is
 * completed: a redelivery, days later, gets the stored answer; a delivery
 * that finds the payment's key held, or fails, is answered 409 or 503, and
 * the provider tries again. Every delivery of a payment of the shop's goes
 * into its order's account, as the page's webhook lane draws it.
 */
export async function serveWebhook(services: AppServices, request: Request): Promise<Response> {
  if (!services.webhooks) {
    return refusal(
      404,
      "Webhooks are not configured here: start the shop with WEBHOOK_SECRET, the endpoint's signing secret.",
    );
  }
  const { secret, runOnce } = services.webhooks;
  let delivery: DeliveryRecord | null = null;
  // Set once this delivery runs under the event's key: a failure then is the handling's, not the key's.
  let claimed: string | null = null;
  try {
    const event = await verifiedEvent(request, secret);
    const payment = await paymentOfEvent(services.db, event);
    delivery =
      payment &&
      recordDelivery(services.account, { orderId: payment.orderId, event, paymentKey: payment.key });
    const result = await runOnce.run(
      {
        scope: { caller: "payment provider", path: WEBHOOK_KEYSPACE, key: event.id },
        fingerprint: fingerprint(WEBHOOK_KEYSPACE, event),
      },
      async ({ commit, generation }) => {
        claimed = generation;
        const outcome =
          payment && delivery ? await recordPaymentEvent(services, event, payment, delivery.id) : NOT_OURS;
        return commit(async () => ({ outcome }));
      },
    );
    const answer = runOnce.unwrap(result) as { outcome: EventOutcome | typeof NOT_OURS };
    if (answer.outcome !== NOT_OURS) delivery?.answered(result, answer.outcome);
    return Response.json({ received: true, event: event.id, ...answer }, { headers: resultHeaders(result) });
  } catch (error) {
    if (error instanceof WebhookRefusal) return refusal(error.status, error.message);
    const ended: Pick<RequestEnding, "decision" | "generation"> = {
      generation: claimed,
      decision: claimed ? "released" : error instanceof RunOnceError ? error.outcome : "coalesced",
    };
    if (error instanceof KeyInProgressError) {
      // Held past the wait: the event's key by another delivery, or, once this one ran, the payment's by another road.
      delivery?.refused(
        { ...ended, status: 409, retryAfterSeconds: error.retryAfterSeconds },
        claimed ? "payment key held" : null,
      );
      return refusal(409, error.message, error.retryAfterSeconds);
    }
    delivery?.refused({ ...ended, status: 503, retryAfterSeconds: 1 }, claimed ? "failed" : null);
    logger.warn(
      { err: error },
      "webhook: the event could not be handled; the provider will deliver it again",
    );
    return refusal(503, "The event could not be handled now; nothing was recorded. Deliver it again.", 1);
  }
}

/** What an event of a payment the shop did not make (the lab's naive charges) comes to: nothing to record. */
const NOT_OURS = "not a payment of this shop's";

/** Every answer but success: a status, one sentence, and when to try again where that helps. */
function refusal(status: number, message: string, retryAfterSeconds?: number): Response {
  return Response.json(
    { error: { message } },
    { status, headers: retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) } },
  );
}
