import { z } from "zod";
import { RUN_ONCE_OUTCOMES } from "run-once";
import { orderIdSchema } from "../orders/schemas";
import { PROVIDER_CALL_PURPOSES } from "../account/provider-calls";
import { DELIVERY_OUTCOMES } from "../account/webhook-deliveries";

export const serverAccountInput = z.strictObject({ orderId: orderIdSchema });

/** How a request ended: the core's words (RUN_ONCE_OUTCOMES). */
const attemptDecisionSchema = z.enum(RUN_ONCE_OUTCOMES);

const foundKeyStateSchema = z.enum(["absent", "in_progress", "completed", "expired"]);

/** One request that reached payments.charge, as the server answered it. */
export const serverAttemptSchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  instance: z.string(),
  key: z.string(),
  generation: z.string().nullable(),
  /** Null while the request is in flight: recorded on arrival, completed in place. */
  decision: attemptDecisionSchema.nullable(),
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
  /** A client's request, the background completer's run of a stranded payment, or the lab's naive client's (no run-once). */
  sentBy: z.enum(["client", "completer", "webhook", "naive client"]),
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
  /** The provider's decision (its Idempotency-Decision), or "conflict" for its 409; null with no reply yet, or none. */
  decision: attemptDecisionSchema.nullable(),
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
  /** The payment's key, which the event's handling records under. */
  paymentKey: z.string(),
  /** How the event's key answered this delivery; null while it is handled. */
  decision: attemptDecisionSchema.nullable(),
  status: z.number().int().nullable(),
  /** What it came to for the payment (the stored answer, for a replay); null in flight or refused before it ran. */
  outcome: z.enum(DELIVERY_OUTCOMES).nullable(),
  durationMs: z.number().int(),
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
  /** Oldest first, every key of the order. */
  attempts: z.array(serverAttemptSchema),
  /** Oldest first, every keyed call the shop made to the provider for the order. */
  providerCalls: z.array(providerCallSchema),
  /** Oldest first, every delivery of the provider's webhook for the order's payments. */
  webhookDeliveries: z.array(webhookDeliverySchema),
  keys: z.array(keyLifecycleSchema),
});
