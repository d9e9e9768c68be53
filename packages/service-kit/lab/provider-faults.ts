import { z } from "zod";

const count = z.number().int().min(0).max(5);
const milliseconds = z.number().int().min(0).max(10_000);

/** The provider's lab faults per order, declared once for the provider and the shop that sets them. */
export const providerFaultsSchema = z.object({
  /** Committed charges whose reply the provider loses. */
  dropReplies: count,
  /** Requests the provider answers 503 before doing anything. */
  unavailable: count,
  /** Charges the card network holds past the shop's per-attempt timeout. */
  timeouts: count,
  /** Latency the card network adds to every charge. */
  delayMs: milliseconds,
  /** The card network declines every card. */
  decline: z.boolean(),
  /** The provider delivers the order's events to the shop's webhook twice, the second seconds after the first's 2xx. */
  webhookTwice: z.boolean(),
  /** How long the provider holds a succeeded charge's reply, so that its webhook reaches the shop first. */
  holdReplyMs: milliseconds,
});

export type ProviderFaults = z.infer<typeof providerFaultsSchema>;

/** Every fault off: an order nobody set a fault for. */
export const NO_PROVIDER_FAULTS: ProviderFaults = {
  dropReplies: 0,
  unavailable: 0,
  timeouts: 0,
  delayMs: 0,
  decline: false,
  webhookTwice: false,
  holdReplyMs: 0,
};
