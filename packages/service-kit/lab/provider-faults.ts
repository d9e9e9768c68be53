import { z } from "zod";

const count = z.number().int().min(0).max(5);
const milliseconds = z.number().int().min(0).max(10_000);

/** The provider's lab faults per order, declared once for the provider and the shop that sets them. */
export const providerFaultsSchema = z.object({
  /** Committed charges whose reply the provider loses. */
  dropReplies: count,
  /** Requests the provider answers 503 before doing anything. */
  unavailable: count,
  /** Charges the card network holds past the shop's per-try timeout. */
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

/** Every switch of a lab schema off, a count at 0, a flag false, a choice null: an order nobody set one for. */
export function allSwitchedOff<T extends z.ZodObject>(schema: T): z.infer<T> {
  const off = (field: unknown) =>
    field instanceof z.ZodBoolean ? false : field instanceof z.ZodNullable ? null : 0;
  return Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => [name, off(field)]),
  ) as z.infer<T>;
}

export const NO_PROVIDER_FAULTS = allSwitchedOff(providerFaultsSchema);
