import type { ProviderCall } from "./server-account";

/** The provider's decisions that ran the charge (or the decline) under their key. */
const RAN = new Set(["executed", "taken_over", "expired"]);

const CHARGES_PATH = "POST /v1/charges";

/** What one call came to, in words: the provider's decision, or what reached the shop instead. */
export function providerCallWords(call: ProviderCall): string {
  const declined = call.status === 402;
  if (call.noReply) return "no reply reached the shop (lost, or timed out)";
  if (call.status === null) return "in flight: no reply yet";
  if (call.decision === "conflict") return "409: the key is in use at the provider; retry later";
  if (call.decision === "replayed")
    return declined ? "replayed the stored decline" : "replayed the stored result";
  if (call.decision === "coalesced") return "waited for the call in flight and shared its result";
  if (call.decision !== null && RAN.has(call.decision)) {
    if (call.path !== CHARGES_PATH) return "saved the card";
    return declined ? "declined the card" : "charged the card";
  }
  return `HTTP ${call.status}: no final answer`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/**
 * What the shop asked of the provider for this order: "2 charge calls under
 * 1 key, 1 charge confirmed: call 1 …; call 2 …". A key charges at most once,
 * so the charges confirmed are the keys that got a charge back.
 */
export function providerSummary(calls: readonly ProviderCall[]): string {
  const charges = calls.filter((call) => call.path === CHARGES_PATH);
  if (charges.length === 0) return "The shop has not asked the provider to charge yet.";
  const keys = new Set(charges.map((call) => call.key)).size;
  const confirmed = new Set(charges.filter((call) => call.status === 200).map((call) => call.key)).size;
  const told = charges.map((call, i) => `call ${i + 1} ${providerCallWords(call)}`).join("; ");
  return `${plural(charges.length, "charge call")} under ${plural(keys, "key")}, ${plural(confirmed, "charge")} confirmed: ${told}.`;
}
