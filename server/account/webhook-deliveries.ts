import { z } from "zod";
import type { Account } from "./accounted-run";
import { recordViewSchema, viewOf } from "./request-record";
import type { RequestRecord } from "./request-record";
import { EVENT_ROADS } from "./road";
import type { EventRoad } from "./road";

/** Where the account keeps the provider's webhook deliveries: under their order (kept as long as it is), each under its event's id. */
export const WEBHOOK_DELIVERIES_PATH = "payment provider webhook deliveries";

/** Whom the account keeps a delivery under when its event names no order (a type the shop does not handle). */
const NO_ORDER = "payment provider";

/** What an event tells of its payment, as the handler of its type says: a charge, or a decline. */
export const EVENT_TELLS = ["charge", "decline"] as const;
export type EventTells = (typeof EVENT_TELLS)[number];

/** What handling an event came to for its payment, or nothing to do (not the shop's, or ignored). */
export const EVENT_OUTCOMES = [
  "recorded",
  "already recorded",
  "shared",
  "not a payment of this shop's",
  "ignored",
] as const;
export type EventOutcome = (typeof EVENT_OUTCOMES)[number];

/** Why a delivery was not answered 2xx: the payment's key stayed held past the wait bound, or the handling failed. */
const NOT_HANDLED = ["payment key held", "failed"] as const;

export const DELIVERY_OUTCOMES = [...EVENT_OUTCOMES, ...NOT_HANDLED] as const;

const deliveryBody = z.object({
  event: z.string(),
  type: z.string(),
  /** What the event tells of its payment, for a type the shop handles. */
  tells: z.enum(EVENT_TELLS).nullable(),
  /** The payment's key (its metadata's payment_key), which the event's handling records under. */
  paymentKey: z.string().nullable(),
  /** What it came to for the payment (the stored answer, for a replay); null in flight or refused before it ran. */
  outcome: z.enum(DELIVERY_OUTCOMES).nullable(),
});

const eventRoad = z.enum(EVENT_ROADS);

/** An event as a road brought it (a webhook delivery, as the shop answered it; or the catch-up): its decision is the event's key's. */
export const webhookDeliverySchema = recordViewSchema.extend({ road: eventRoad, ...deliveryBody.shape });
type DeliveryBody = z.infer<typeof deliveryBody>;

/** An event by either road, run under its id: its record (the webhook's answered to the provider), and what it came to. */
export function deliveryArrived(
  account: Pick<Account, "arrived">,
  road: EventRoad,
  delivery: Omit<DeliveryBody, "outcome"> & { orderId: string | null },
) {
  const { orderId, ...sent } = delivery;
  const run = account.arrived({
    road,
    scope: { caller: orderId ?? NO_ORDER, path: WEBHOOK_DELIVERIES_PATH, key: sent.event },
    fingerprint: "",
    body: { ...sent, outcome: null },
    ...(road === "webhook" && { answers: { ok: 200, error: () => 503 } }),
  });
  return {
    run,
    /** What handling it came to, kept with its answer (before its commit, to be written in it). */
    cameTo(outcome: (typeof DELIVERY_OUTCOMES)[number]) {
      run.noted({ ...sent, outcome } satisfies DeliveryBody);
    },
  };
}

export type Delivery = ReturnType<typeof deliveryArrived>;

/** A delivery as the account recorded it: the event, how its key answered, and what it did for the payment. */
export function webhookDeliveryOf(record: RequestRecord): z.infer<typeof webhookDeliverySchema> {
  return { ...viewOf(record), road: eventRoad.parse(record.sentBy), ...deliveryBody.parse(record.body) };
}
