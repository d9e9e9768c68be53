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
  /** Must be the order's paymentKey: the server refuses keys made per attempt. */
  idempotencyKey: idempotencyKeySchema.optional(),
  /** A payment method the browser created at the provider (or a documented test one): never a card number. */
  paymentMethodId: z.string().regex(/^pm_[A-Za-z0-9_]{1,100}$/),
});

export const chargeOutput = z.object({
  chargeId: z.string(),
  orderId: orderIdSchema,
  amountCents: z.number().int(),
  status: z.literal("captured"),
  cardLast4: z.string(),
  createdAt: z.iso.datetime(),
});

/** What the server's account keeps of a charge's body: never the card number, only its last four digits. */
export function maskedCharge(payload: Record<string, unknown>) {
  const { cardNumber, ...rest } = payload as Omit<z.infer<typeof chargeInput>, "idempotencyKey">;
  return { ...rest, cardNumber: `${MASKED_CARD_PREFIX}${cardNumber.slice(-4)}` };
}

/** A masked card number: the account's copy-as-curl asks for the real one in its place. */
const MASKED_CARD_PREFIX = "•••• ";
