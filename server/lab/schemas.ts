import { z } from "zod";
import { idempotencyKeySchema } from "../idempotency-key-schema";
import { orderIdSchema } from "../orders/schemas";
import { chargeInput } from "../payments/schemas";
import { providerFaultsSchema } from "service-kit/lab/provider-faults";

const count = z.number().int().min(0).max(5);

/** The rules of the guide's "Pitfalls" the lab's pitfall charge can break, one at a time (keys per try: the naive client). */
export const brokenRuleSchema = z.enum(["partial-commit", "memory-store", "cached-error", "unbounded-wait"]);
export type BrokenRule = z.infer<typeof brokenRuleSchema>;

/** The shop's own faults, per order. */
export const shopSwitchesSchema = z.object({
  /** Replies of committed charges to lose on the way back to the browser. */
  dropReplies: count,
  /** Tries to fail before the provider is called. */
  failuresBeforeCommit: count,
  /** Tries to hold between the provider's charge and the shop's record: the window to kill a server in. */
  stallsBetweenHops: count,
  /** The browser makes a new key per try, against a charge without run-once. */
  naiveClient: z.boolean(),
  /** The shop calls the provider with a new key per try. */
  naiveProviderCalls: z.boolean(),
  /** Pay runs the lab's pitfall charge, whose only guard is the key (see server/lab/pitfalls/). */
  pitfallMode: z.boolean(),
  /** The guide's rule the pitfall charge breaks; null: it keeps them all. */
  brokenRule: brokenRuleSchema.nullable(),
  /** Pitfall-mode executions to fail after their charge is written, as a failed event publication. */
  failuresAfterWrite: count,
  /** Pitfall-mode executions held before the provider is called, long past any wait bound. */
  stuckExecutions: count,
  /** Receipt deliveries after which the worker kills itself, between the receipt and its ack. */
  consumerDeathsBeforeAck: count,
  /** Payment events the relay publishes a second time. */
  relayDuplicates: count,
  /** Every delivery of the payment's event fails, until the queue dead-letters it. */
  poisonMessage: z.boolean(),
  /** The receipt consumer sends on every delivery, without its run-once key. */
  naiveConsumer: z.boolean(),
  /** The shop is down for this order: its webhook answers 503 to the order's events, and the provider's answers are lost. */
  shopDown: z.boolean(),
});

export const labSwitchesSchema = z.object({ shop: shopSwitchesSchema, provider: providerFaultsSchema });

/** Only the switches given change. */
export const setLabSwitchesInput = z.strictObject({
  orderId: orderIdSchema,
  shop: shopSwitchesSchema.partial().optional(),
  provider: providerFaultsSchema.partial().optional(),
});

export const naiveChargeInput = z.strictObject({
  orderId: orderIdSchema,
  amountCents: chargeInput.shape.amountCents,
  /** The naive client's mistake: a key made afresh for every try. */
  attemptKey: idempotencyKeySchema,
  paymentMethodId: chargeInput.shape.paymentMethodId,
});

export const ageKeyOutput = z.object({ key: z.string(), expiresAt: z.iso.datetime() });

/** The server that answered, and the process holding the order's stall between the hops: each a pid for `kill -9`. */
export const labStallOutput = z.object({
  serverPid: z.number().int(),
  stallPid: z.number().int().nullable(),
});
