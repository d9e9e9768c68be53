import type Stripe from "stripe";
import type { EventHandler } from "./event-handler";

type HandlerOf<T extends Stripe.Event.Type> = EventHandler<Extract<Stripe.Event, { type: T }>>;

/** The handled event types, each lazily imported; every other verified event is 2xx and ignored. */
const EVENT_HANDLERS: { [T in Stripe.Event.Type]?: () => Promise<{ default: HandlerOf<T> }> } = {
  "payment_intent.succeeded": () => import("./handlers/payment_intent.succeeded"),
  "payment_intent.payment_failed": () => import("./handlers/payment_intent.payment_failed"),
};

export async function handlerOf(event: Stripe.Event): Promise<EventHandler | null> {
  // The table pairs each type with its event's handler; looked up by a type only known at run time, it is any type's.
  const load = EVENT_HANDLERS[event.type] as (() => Promise<{ default: EventHandler }>) | undefined;
  return load ? (await load()).default : null;
}
