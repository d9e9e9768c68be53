import type Stripe from "stripe";
import type { AccountedRun } from "../account/accounted-run";
import type { EventOutcome, EventTells } from "../account/webhook-deliveries";
import type { Services } from "../services-types";

/** What a handler may use: the shop's services (their run-once core is the payments'). */
export type HandlerServices = Pick<Services, "db" | "provider" | "runOnce" | "metrics" | "account">;

/** The handler of one event type: what its events tell, and how one is handled, once per event id. */
export interface EventHandler<E extends Stripe.Event = Stripe.Event> {
  tells: EventTells;
  handle(
    services: HandlerServices,
    event: E,
    delivery: Pick<AccountedRun, "id" | "road">,
  ): Promise<EventOutcome>;
}
