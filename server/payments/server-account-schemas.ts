import { z } from "zod";
import { RUN_ONCE_OUTCOMES } from "run-once";
import { orderIdSchema } from "../orders/schemas";
import { PROVIDER_CALL_PURPOSES } from "../account/provider-calls";
import { ROADS } from "../account/road";
import { DELIVERY_OUTCOMES, EVENT_TELLS } from "../account/webhook-deliveries";

export const serverAccountInput = z.strictObject({ orderId: orderIdSchema });

/** How a run ended: the core's words (RUN_ONCE_OUTCOMES). */
const decisionSchema = z.enum(RUN_ONCE_OUTCOMES);

const foundKeyStateSchema = z.enum(["absent", "in_progress", "completed", "expired"]);

/** One run under one of the order's payment keys (a request to payments.charge, a completer run...), as the server saw it. */
export const requestViewSchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  instance: z.string(),
  key: z.string(),
  generation: z.string().nullable(),
  /** Null while the request is in flight: recorded on arrival, completed in place. */
  decision: decisionSchema.nullable(),
  /** The grid's row: the state the request found its key in. */
  keyState: foundKeyStateSchema.nullable(),
  /** The grid's column: the body against the one the key last ran or held (a first request counts as "same"). */
  payload: z.enum(["same", "different"]),
  fingerprint: z.string(),
  /** The body as the server kept it, key left out, card number masked. */
  body: z.record(z.string(), z.json()),
  status: z.number().int().nullable(),
  durationMs: z.number().int(),
  replyLost: z.boolean(),
  retryAfterSeconds: z.number().int().nullable(),
  keyExpiresAt: z.iso.datetime().nullable(),
  /** The road it came by. */
  sentBy: z.enum(ROADS),
  /** A webhook's run: the delivery (webhookDeliveries) whose handling ran it. */
  delivery: z.string().nullable(),
});

/** A call from the shop to the payment provider under a key derived from the payment's. */
export const providerCallSchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  /** The shop's instance that sent it. */
  instance: z.string(),
  key: z.string(),
  path: z.string(),
  /** What the call was for. */
  purpose: z.enum(PROVIDER_CALL_PURPOSES),
  /** Which try of the shop's retry policy, from 1. */
  try: z.number().int(),
  /** The run (requests) that sent it. */
  run: z.string(),
  /** The payment's key the call's key was made for; null for a key of the lab's own. */
  paymentKey: z.string().nullable(),
  /** The provider's id for it (its reply's Request-Id); a charge names the request that made it by this id. */
  requestId: z.string().nullable(),
  /** The provider's decision (its Idempotency-Decision), or "conflict" for its 409; null with no reply yet, or none. */
  decision: decisionSchema.nullable(),
  status: z.number().int().nullable(),
  durationMs: z.number().int(),
  /** No reply reached the shop: lost on the way, or timed out. */
  noReply: z.boolean(),
});

/** A delivery of the provider's webhook for the order's payment, as the shop answered it. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  /** The shop's instance that answered it. */
  instance: z.string(),
  event: z.string(),
  type: z.string(),
  /** What the event tells of its payment: a charge, or a decline. */
  tells: z.enum(EVENT_TELLS).nullable(),
  /** The payment's key (its metadata's payment_key), which the event's handling records under. */
  paymentKey: z.string().nullable(),
  /** How the event's key answered this delivery; null while it is handled. */
  decision: decisionSchema.nullable(),
  status: z.number().int().nullable(),
  /** What it came to for the payment (the stored answer, for a replay); null in flight or refused before it ran. */
  outcome: z.enum(DELIVERY_OUTCOMES).nullable(),
  durationMs: z.number().int(),
});

/** One try of the provider's webhook delivery, as the provider's own record has it. */
export const webhookTrySchema = z.object({
  id: z.string(),
  event: z.string(),
  type: z.string(),
  /** The provider's count of this event's tries, from 1. */
  try: z.number().int(),
  at: z.iso.datetime(),
  /** The shop's status; null in flight, or when no answer came (then `error` says why). */
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int().nullable(),
});

/** A key of the order, where it stands in its lifecycle now. */
export const keyLifecycleSchema = z.object({
  key: z.string(),
  state: foundKeyStateSchema,
  /** While in progress: when the owner's lease runs out. */
  lockedUntil: z.iso.datetime().nullable(),
  /** While completed (or expired): the end of its retention. */
  expiresAt: z.iso.datetime().nullable(),
});

export const serverAccountOutput = z.object({
  /** The server's clock, so that countdowns do not depend on the browser's. */
  now: z.iso.datetime(),
  /** Oldest first, every run under a key of the order. */
  requests: z.array(requestViewSchema),
  /** Oldest first, every keyed call the shop made to the provider for the order. */
  providerCalls: z.array(providerCallSchema),
  /** Oldest first, every delivery of the provider's webhook for the order's payments, as the shop answered it. */
  webhookDeliveries: z.array(webhookDeliverySchema),
  /** Oldest first, every try of those deliveries as the provider recorded it; null where it shows none. */
  webhookTries: z.array(webhookTrySchema).nullable(),
  keys: z.array(keyLifecycleSchema),
});
