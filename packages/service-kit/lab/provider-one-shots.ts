import type { ProviderFaults } from "./provider-faults";

/** The faults that count down: each request they act on spends one. Apart from the schema, so the browser gets no zod. */
export const PROVIDER_ONE_SHOTS = ["dropReplies", "unavailable", "timeouts"] as const satisfies ReadonlyArray<
  keyof ProviderFaults
>;
export type ProviderOneShot = (typeof PROVIDER_ONE_SHOTS)[number];
