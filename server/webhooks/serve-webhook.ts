import { KeyInProgressError, fingerprint } from "run-once";
import { resultHeaders } from "run-once/http";
import type Stripe from "stripe";
import { logger } from "service-kit/logger";
import { deliveryArrived } from "../account/webhook-deliveries";
import type { EventOutcome } from "../account/webhook-deliveries";
import type { AppServices } from "../services";
import { handlerOf } from "./event-handlers";
import { WebhookRefusal, verifiedEvent } from "./verified-event";

/** The name event keys are stored under: one key per event id, whoever delivers it. */
export const WEBHOOK_KEYSPACE = "payment provider webhook";

/** The webhook: each verified event under run-once by its id, answered once its key completed. */
export async function serveWebhook(services: AppServices, request: Request): Promise<Response> {
  if (!services.webhooks) {
    return refusal(
      404,
      "Webhooks are not configured here: start the shop with WEBHOOK_SECRET, the endpoint's signing secret.",
    );
  }
  let event: Stripe.Event;
  try {
    event = await verifiedEvent(request, services.webhooks.secret);
  } catch (error) {
    if (error instanceof WebhookRefusal) return refusal(error.status, error.message);
    throw error;
  }
  const handler = await handlerOf(event);
  const { order, payment_key } = metadataOf(event);
  const delivery = deliveryArrived(services.account, {
    orderId: order ?? null,
    event: event.id,
    type: event.type,
    tells: handler?.tells ?? null,
    paymentKey: payment_key ?? null,
  });
  if (!handler) {
    delivery.cameTo("ignored");
    delivery.run.ended({ unkeyed: true });
    return Response.json({ received: true, event: event.id, outcome: "ignored" });
  }
  const { runOnce } = services.webhooks;
  // Set once this delivery runs under the event's key: a failure then is the handling's, not the key's.
  let claimed = false;
  try {
    const result = await runOnce.run(
      {
        scope: { caller: "payment provider", path: WEBHOOK_KEYSPACE, key: event.id },
        fingerprint: fingerprint(WEBHOOK_KEYSPACE, event),
      },
      async (execution) => {
        const { commit } = delivery.run.claimed(execution);
        claimed = true;
        const outcome = await handler.handle(services, event, delivery.run);
        delivery.cameTo(outcome);
        return commit(() => Promise.resolve({ outcome }));
      },
    );
    const answer = runOnce.unwrap(result) as { outcome: EventOutcome };
    delivery.cameTo(answer.outcome);
    delivery.run.ended({ result });
    return Response.json({ received: true, event: event.id, ...answer }, { headers: resultHeaders(result) });
  } catch (error) {
    if (error instanceof KeyInProgressError) {
      // Held past the wait: the event's key by another delivery, or, once this one ran, the payment's by another road.
      if (claimed) delivery.cameTo("payment key held");
      delivery.run.ended({ error, retryAfterSeconds: error.retryAfterSeconds }, 409);
      return refusal(409, error.message, error.retryAfterSeconds);
    }
    if (claimed) delivery.cameTo("failed");
    delivery.run.ended({ error, retryAfterSeconds: 1 }, 503);
    logger.warn(
      { err: error },
      "webhook: the event could not be handled; the provider will deliver it again",
    );
    return refusal(503, "The event could not be handled now; nothing was recorded. Deliver it again.", 1);
  }
}

/** The order and the payment an event's object names in its metadata (a PaymentIntent's), if any. */
function metadataOf(event: Stripe.Event): { order?: string; payment_key?: string } {
  const object = event.data.object as { metadata?: Record<string, string> };
  return object.metadata ?? {};
}

/** Every answer but success: a status, one sentence, and when to try again where that helps. */
function refusal(status: number, message: string, retryAfterSeconds?: number): Response {
  return Response.json(
    { error: { message } },
    { status, headers: retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) } },
  );
}
