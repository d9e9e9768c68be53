import { z } from "zod";
import { APPROVED_TEST_CARD } from "../../payments/test-cards";
import { idempotencyKeySchema } from "./idempotency-key";
import { orderIdSchema } from "./orders";
import { chargeInput } from "./payments";

const count = z.number().int().min(0).max(5);

/** The shop's own faults, per order. */
export const shopSwitchesSchema = z.object({
  /** Replies of committed charges to lose on the way back to the browser. */
  dropReplies: count,
  /** Attempts to fail before the provider is called. */
  failuresBeforeCommit: count,
  /** Attempts to hold between the provider's charge and the shop's record: the window to kill a server in. */
  stallsBetweenHops: count,
  /** The browser makes a new key per attempt, against a charge without run-once. */
  naiveClient: z.boolean(),
  /** The shop calls the provider with a new key per attempt. */
  naiveProviderCalls: z.boolean(),
});

/** The payment provider's faults, per order (its own switches, set through its test API). */
export const providerFaultsSchema = z.object({
  /** Committed charges whose reply the provider loses. */
  dropReplies: count,
  /** Requests the provider answers 503 before doing anything. */
  unavailable: count,
  /** Requests the provider holds past the shop's per-attempt timeout. */
  timeouts: count,
  /** Latency the provider adds to every charge. */
  delayMs: z.number().int().min(0).max(10_000),
  decline: z.boolean(),
});

export const labSwitchesSchema = z.object({ shop: shopSwitchesSchema, provider: providerFaultsSchema });

export const labSwitchesInput = z.strictObject({ orderId: orderIdSchema });

/** Only the switches given change. */
export const setLabSwitchesInput = z.strictObject({
  orderId: orderIdSchema,
  shop: shopSwitchesSchema.partial().optional(),
  provider: providerFaultsSchema.partial().optional(),
});

export const naiveChargeInput = z.strictObject({
  orderId: orderIdSchema,
  amountCents: chargeInput.shape.amountCents,
  /** The naive client's mistake: a key made afresh for every attempt. */
  attemptKey: idempotencyKeySchema,
  cardNumber: chargeInput.shape.cardNumber.default(APPROVED_TEST_CARD),
});

export const ageKeyInput = z.strictObject({ orderId: orderIdSchema });

export const ageKeyOutput = z.object({ key: z.string(), expiresAt: z.iso.datetime() });
