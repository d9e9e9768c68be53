import { z } from "zod";
import { idempotencyKeySchema } from "./idempotency-key";
import { APPROVED_TEST_CARD } from "../../ledger/mock-ledger";
import { orderIdSchema } from "./orders";
import { chargeInput } from "./payments";

export const labSwitchesSchema = z.object({
  dropReplies: z.number().int().min(0).max(5),
  failuresBeforeCommit: z.number().int().min(0).max(5),
  stallsBeforeCommit: z.number().int().min(0).max(5),
  ledgerDelayMs: z.number().int().min(0).max(10_000),
  decline: z.boolean(),
  naiveClient: z.boolean(),
});

export const labSwitchesInput = z.strictObject({ orderId: orderIdSchema });

export const setLabSwitchesInput = z.strictObject({ orderId: orderIdSchema, switches: labSwitchesSchema });

export const naiveChargeInput = z.strictObject({
  orderId: orderIdSchema,
  amountCents: chargeInput.shape.amountCents,
  /** The naive client's mistake: a key made afresh for every attempt. */
  attemptKey: idempotencyKeySchema,
  cardNumber: chargeInput.shape.cardNumber.default(APPROVED_TEST_CARD),
});
