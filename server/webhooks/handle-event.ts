import { KeyInProgressError, fingerprint } from "run-once";
import type { RunOnce, RunResult } from "run-once";
import type Stripe from "stripe";
import { deliveryArrived } from "../account/webhook-deliveries";
import type { EventOutcome } from "../account/webhook-deliveries";
import type { EventRoad } from "../account/road";
import type { Tx } from "../db/client";
import type { HandlerServices } from "./event-handler";
import { handlerOf } from "./event-handlers";

/** The name event keys are stored under: one key per event id, whichever road brings it. */
export const WEBHOOK_KEYSPACE = "payment provider webhook";

/** What an event came to for its payment, and its key's result (null for a type the shop ignores). */
export interface EventHandled {
  outcome: EventOutcome;
  result: RunResult | null;
}

/** Handles one event under run-once by its id, whichever road brought it: a failure is on the account, then thrown. */
export async function handleEvent(
  services: HandlerServices,
  eventRunOnce: RunOnce<Tx>,
  event: Stripe.Event,
  road: EventRoad,
): Promise<EventHandled> {
  const handler = await handlerOf(event);
  const { order, payment_key } = metadataOf(event);
  const delivery = deliveryArrived(services.account, road, {
    orderId: order ?? null,
    event: event.id,
    type: event.type,
    tells: handler?.tells ?? null,
    paymentKey: payment_key ?? null,
  });
  if (!handler) {
    delivery.cameTo("ignored");
    delivery.run.ended({ unkeyed: true });
    return { outcome: "ignored", result: null };
  }
  // Set once this road runs under the event's key: a failure then is the handling's, not the key's.
  let claimed = false;
  try {
    const result = await eventRunOnce.run(
      {
        scope: { caller: "payment provider", path: WEBHOOK_KEYSPACE, key: event.id },
        // Less pending_webhooks, which the provider counts down as deliveries succeed: the same event by any road.
        fingerprint: fingerprint(WEBHOOK_KEYSPACE, { ...event, pending_webhooks: null }),
      },
      async (execution) => {
        const { commit } = delivery.run.claimed(execution);
        claimed = true;
        const outcome = await handler.handle(services, event, delivery.run);
        delivery.cameTo(outcome);
        return commit(() => Promise.resolve({ outcome }));
      },
    );
    const { outcome } = eventRunOnce.unwrap(result) as { outcome: EventOutcome };
    delivery.cameTo(outcome);
    delivery.run.ended({ result });
    return { outcome, result };
  } catch (error) {
    // Held past the wait: the event's key by another road, or, once this one ran, the payment's by another.
    const held = error instanceof KeyInProgressError;
    if (claimed) delivery.cameTo(held ? "payment key held" : "failed");
    const retryAfterSeconds = held ? error.retryAfterSeconds : 1;
    delivery.run.ended({ error, retryAfterSeconds }, road === "webhook" ? (held ? 409 : 503) : null);
    throw error;
  }
}

/** The order and the payment an event's object names in its metadata (a PaymentIntent's), if any. */
export function metadataOf(event: Stripe.Event): { order?: string; payment_key?: string } {
  const object = event.data.object as { metadata?: Record<string, string> };
  return object.metadata ?? {};
}
