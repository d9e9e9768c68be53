/**
 * The HTTP vocabulary of idempotency keys, shared by servers and clients:
 * the request header of the IETF draft, Stripe's replay marker, and what the
 * server decided and for how long it keeps the key.
 */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
/** "true" on an answer that did not execute: a stored outcome (replayed) or a shared one (coalesced). */
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** What the server decided: executed, replayed, coalesced, taken_over or expired. */
export const DECISION_HEADER = "Idempotency-Decision";
/** Until when the key is retained, as an HTTP date: a retry after it runs again. */
export const KEY_EXPIRES_HEADER = "Idempotency-Key-Expires";

/** The Idempotency-Key header's value: bare, as most APIs send it, or an RFC 8941 string ("..."), as the draft writes it. */
export function keyFromHeader(value: string): string {
  const trimmed = value.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1)
    : trimmed;
}
