import { KeyInProgressError } from "run-once";
import { resultHeaders } from "run-once/http";
import type Stripe from "stripe";
import { logger } from "service-kit/logger";
import type { AppServices } from "../services";
import { handleEvent, metadataOf } from "./handle-event";
import { WebhookRefusal, verifiedEvent } from "./verified-event";

/** The webhook: each verified event handled under its id's key, answered once its key completed. */
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
  const { order } = metadataOf(event);
  if (order && (await services.webhooks.refuses(order)))
    return refusal(503, "The shop is down for this order (the lab's switch): nothing was handled.", 1);
  try {
    const { outcome, result } = await handleEvent(services, services.webhooks.runOnce, event, "webhook");
    return Response.json(
      { received: true, event: event.id, outcome },
      { headers: result ? resultHeaders(result) : {} },
    );
  } catch (error) {
    if (error instanceof KeyInProgressError) return refusal(409, error.message, error.retryAfterSeconds);
    logger.warn(
      { err: error },
      "webhook: the event could not be handled; the provider will deliver it again",
    );
    return refusal(503, "The event could not be handled now; nothing was recorded. Deliver it again.", 1);
  }
}

/** Every answer but success: a status, one sentence, and when to try again where that helps. */
function refusal(status: number, message: string, retryAfterSeconds?: number): Response {
  return Response.json(
    { error: { message } },
    { status, headers: retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) } },
  );
}
