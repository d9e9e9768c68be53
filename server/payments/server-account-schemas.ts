import { z } from "zod";
import { orderIdSchema } from "../orders/schemas";
import { providerCallSchema } from "../account/provider-calls";
import { recordViewSchema } from "../account/request-record";
import { ROADS } from "../account/road";
import { webhookDeliverySchema } from "../account/webhook-deliveries";
import { webhookTrySchema } from "../payment-provider/payment-provider";

export const serverAccountInput = z.strictObject({ orderId: orderIdSchema });

const foundKeyStateSchema = z.enum(["absent", "in_progress", "completed", "expired"]);

/** One run under one of the order's payment keys (a request to payments.charge, a completer run...), as the server saw it. */
export const requestViewSchema = recordViewSchema.extend({
  key: z.string(),
  generation: z.string().nullable(),
  /** The grid's row: the state the request found its key in. */
  keyState: foundKeyStateSchema.nullable(),
  /** The grid's column: the body against the one the key last ran or held (a first request counts as "same"). */
  payload: z.enum(["same", "different"]),
  fingerprint: z.string(),
  /** The body as the server kept it, key left out, card number masked. */
  body: z.record(z.string(), z.json()),
  replyLost: z.boolean(),
  retryAfterSeconds: z.number().int().nullable(),
  keyExpiresAt: z.iso.datetime().nullable(),
  /** The road it came by. */
  sentBy: z.enum(ROADS),
  /** A webhook's run: the delivery (webhookDeliveries) whose handling ran it. */
  delivery: z.string().nullable(),
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
