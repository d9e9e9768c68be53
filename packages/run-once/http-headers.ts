import type { RunResult } from "./types";

/** The HTTP vocabulary of idempotency keys: the IETF draft's header, Stripe's replay marker, decision and expiry. */
export const IDEMPOTENCY_HEADERS = {
  key: "Idempotency-Key",
  /** "true" on an answer that did not execute: a stored outcome (replayed) or a shared one (coalesced). */
  replayed: "Idempotent-Replayed",
  /** What the server decided: executed, replayed, coalesced, taken_over or expired. */
  decision: "Idempotency-Decision",
  /** Until when the key is retained, as an HTTP date: a retry after it runs again. */
  expires: "Idempotency-Key-Expires",
} as const;

/** 1 to 255 printable ASCII characters, as the IETF Idempotency-Key draft and Stripe allow. */
export const KEY_RULE = {
  pattern: /^[\x20-\x7E]{1,255}$/,
  message: "an idempotency key is 1 to 255 printable ASCII characters (space to ~)",
} as const;

/** The Idempotency-Key header's key, bare or as an RFC 8941 string ("..."); null if it breaks KEY_RULE. */
export function keyFromHeader(value: string): string | null {
  const trimmed = value.trim();
  const key =
    trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
  return KEY_RULE.pattern.test(key) ? key : null;
}

/** What an answer tells the client of its key: the decision, whether it was replayed, and until when it is kept. */
export function resultHeaders(result: Pick<RunResult, "decision" | "expiresAt">): Record<string, string> {
  const answered = result.decision === "replayed" || result.decision === "coalesced";
  return {
    [IDEMPOTENCY_HEADERS.decision]: result.decision,
    ...(answered ? { [IDEMPOTENCY_HEADERS.replayed]: "true" } : {}),
    [IDEMPOTENCY_HEADERS.expires]: result.expiresAt.toUTCString(),
  };
}
