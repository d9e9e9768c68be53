import { z } from "zod";
import {
  orderChargeSchema,
  orderIdSchema,
  orderStatusSchema,
  paymentAttemptSchema,
} from "../../orders/schemas";

const ledgerEntrySchema = orderChargeSchema
  .omit({ providerKey: true, providerRequestId: true, recordedBy: true })
  .extend({ orderId: orderIdSchema });

export const ledgerEntriesOutput = z.array(ledgerEntrySchema);

/** Per order: how many charges exist (one, however often Pay was clicked) and how many replays the key served. */
const ledgerOrderSchema = z.object({
  orderId: orderIdSchema,
  totalCents: z.number().int(),
  status: orderStatusSchema,
  paymentKey: z.string(),
  /** Every payment attempt's key and how it ended, oldest first. */
  attempts: z.array(paymentAttemptSchema.pick({ key: true, status: true })),
  chargeCount: z.number().int(),
  chargedCents: z.number().int(),
  replayCount: z.number().int(),
});

export const ledgerSummaryOutput = z.array(ledgerOrderSchema);

/** Per order: the provider's charges next to the shop's record of them, and every disagreement. */
export const reconciliationOutput = z.array(
  z.object({
    orderId: orderIdSchema,
    providerCharges: z.array(orderChargeSchema.pick({ id: true, amountCents: true })),
    recordedCharges: z.array(orderChargeSchema.pick({ id: true, amountCents: true })),
    problems: z.array(z.string()),
  }),
);

export const ledgerCountersOutput = z.object({
  /** Run-once keys (payments and order forms) whose operation ran and completed. */
  keysCompleted: z.number().int(),
  /** Keys whose execution is under way, or whose server died before its lease ran out. */
  keysInProgress: z.number().int(),
  /** Requests answered with a key's stored result or with an execution in flight (replayed or coalesced). */
  answeredFromStore: z.number().int(),
  charges: z.number().int(),
  /** Charges beyond each order's first: the damage of a new key per try (the lab's naive client). */
  extraCharges: z.number().int(),
  declinedAttempts: z.number().int(),
});
