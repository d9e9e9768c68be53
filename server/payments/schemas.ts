import { z } from "zod";
import { idempotencyKeySchema } from "../idempotency-key-schema";
import { orderIdSchema } from "../orders/schemas";

export const chargeInput = z.strictObject({
  orderId: orderIdSchema,
  amountCents: z
    .number()
    .int({ message: "amountCents is a whole number of cents" })
    .positive({ message: "amountCents must be positive" })
    .max(100_000_000, { message: "amountCents is at most 100000000" }),
  /** Must be the order's paymentKey: the server refuses keys made per try. */
  idempotencyKey: idempotencyKeySchema.optional(),
  /** The PaymentMethod the browser created at the provider (or a test one, pm_card_visa): never a card number. */
  paymentMethodId: z.string().regex(/^pm_[A-Za-z0-9_]{1,100}$/, {
    message:
      "paymentMethodId is a PaymentMethod's id (pm_...), created in the browser at the payment provider",
  }),
});

/** The fingerprint skips the PaymentMethod (two tabs make two of one card); the recovery point compares cards. */
export function chargeFingerprinted(payload: Record<string, unknown>) {
  const { paymentMethodId: _compared_by_card, ...rest } = payload;
  return rest;
}

export const chargeOutput = z.object({
  chargeId: z.string(),
  orderId: orderIdSchema,
  amountCents: z.number().int(),
  status: z.literal("captured"),
  cardLast4: z.string(),
  createdAt: z.iso.datetime(),
});
