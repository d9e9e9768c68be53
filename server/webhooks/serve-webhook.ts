import { KeyInProgressError, fingerprint } from "run-once";
import { resultHeaders } from "run-once/http";
import { logger } from "service-kit/logger";
import type { AppServices } from "../services";
import { recordPaymentEvent } from "./record-payment-event";
import { WebhookRefusal, verifiedEvent } from "./verified-event";

/** The name event keys are stored under: one key per event id, whoever delivers it. */
export const WEBHOOK_KEYSPACE = "payment provider webhook";

/**
 * The provider's webhook endpoint. Each event is handled once per event id
 * (the key from business identity, as the guide has it for a queue's
 * messages) under the run-once core, and answered 2xx only once its key is
 * completed: a redelivery, days later, gets the stored answer; a delivery
 * that finds the payment's key held, or fails, is answered 409 or 503, and
 * the provider tries again.
 */
export async function serveWebhook(services: AppServices, request: Request): Promise<Response> {
  if (!services.webhooks) {
    return refusal(
      404,
      "Webhooks are not configured here: start the shop with WEBHOOK_SECRET, the endpoint's signing secret.",
    );
  }
  const { secret, runOnce } = services.webhooks;
  try {
    const event = await verifiedEvent(request, secret);
    const result = await runOnce.run(
      {
        scope: { caller: "payment provider", path: WEBHOOK_KEYSPACE, key: event.id },
        fingerprint: fingerprint(WEBHOOK_KEYSPACE, event),
      },
      async ({ commit }) => {
        const outcome = await recordPaymentEvent(services, event);
        return commit(async () => outcome);
      },
    );
    return Response.json(
      { received: true, event: event.id, ...(runOnce.unwrap(result) as object) },
      { headers: resultHeaders(result) },
    );
  } catch (error) {
    if (error instanceof WebhookRefusal) return refusal(error.status, error.message);
    if (error instanceof KeyInProgressError) {
      return refusal(409, error.message, error.retryAfterSeconds);
    }
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
