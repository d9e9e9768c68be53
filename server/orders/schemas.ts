import { z } from "zod";
import { ROADS } from "../account/road";
import { idempotencyKeySchema } from "../idempotency-key-schema";
import { skuSchema } from "../catalog/schemas";

export const orderIdSchema = z
  .string()
  .regex(/^ord_[A-Za-z0-9_-]{1,60}$/, { message: "an order id looks like ord_..." });

export const orderStatusSchema = z.enum(["PENDING", "PAID"]);

export const placeOrderInput = z.strictObject({
  /** Created when the order form is shown; makes a double-submit place one order. */
  submissionKey: idempotencyKeySchema.optional(),
  items: z
    .array(
      z.strictObject({
        sku: skuSchema,
        quantity: z.number().int().min(1).max(99),
      }),
    )
    .min(1, { message: "an order needs at least one item" })
    .max(20),
});

const orderItemSchema = z.object({
  sku: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unitPriceCents: z.number().int(),
});

export const orderSummarySchema = z.object({
  id: orderIdSchema,
  totalCents: z.number().int(),
  paymentKey: z.string(),
  status: orderStatusSchema,
  createdAt: z.iso.datetime(),
  items: z.array(orderItemSchema),
});

export const placeOrderOutput = orderSummarySchema;

export const getOrderInput = z.strictObject({ orderId: orderIdSchema });

export const orderChargeSchema = z.object({
  id: z.string(),
  amountCents: z.number().int(),
  idempotencyKey: z.string(),
  providerKey: z.string().nullable(),
  /** The provider's id of the request that made it: the provider call (orders.serverAccount) that charged the card. */
  providerRequestId: z.string().nullable(),
  cardLast4: z.string(),
  naive: z.boolean(),
  /** The account's record of the run that recorded it (orders.serverAccount); null: unrecorded. */
  recordedBy: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

/** "in_progress" after a reload: an attempt may have died, so the page offers to finish it. */
const paymentKeyStateSchema = z.enum(["absent", "in_progress", "completed"]);

/** One payment attempt and its key: a decline settles it and opens the next, under a new key. */
export const paymentAttemptSchema = z.object({
  key: z.string(),
  status: z.enum(["OPEN", "DECLINED", "SUCCEEDED", "NEEDS_REVIEW"]),
  /** The provider may have been called under this attempt: its outcome is the provider's, not unknown to it. */
  providerCalled: z.boolean(),
  cardLast4: z.string().nullable(),
  declineReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  settledAt: z.iso.datetime().nullable(),
  /** The road of the run that recorded the outcome: the customer's request, the completer, the webhook... */
  settledBy: z.enum(ROADS).nullable(),
});

export const getOrderOutput = orderSummarySchema.extend({
  charges: z.array(orderChargeSchema),
  /** Oldest first; the last one is the current attempt, whose key is paymentKey. */
  attempts: z.array(paymentAttemptSchema),
  paymentKeyState: paymentKeyStateSchema,
  /** Past the owner's lease, a retry with the key takes it over. */
  paymentKeyLeaseExpiresAt: z.iso.datetime().nullable(),
});

export const listOrdersOutput = z.array(orderSummarySchema);
