/** When a mutation is retried: only an unknown outcome or a 429, never a final answer (the client's half). */

export interface RetrySettings {
  /** Tries in all, the first included. */
  maxTries: number;
  /** Backoff before retry n is uniform in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))] ("full jitter"). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** One try's budget: above the server's wait bound (5 s), so a busy key answers 409 before the client gives up. */
  tryTimeoutMs: number;
  /** The whole operation's budget, backoffs included: no retry starts past it. */
  deadlineMs: number;
}

export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
  maxTries: 5,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  tryTimeoutMs: 8_000,
  deadlineMs: 45_000,
};

/** What a try's failure tells about the outcome. */
export type TryFailure =
  | { kind: "network" } // no response: the request may or may not have arrived
  | { kind: "timeout" } // no response in time: same
  | { kind: "cancelled" } // the caller gave up: not ours to retry
  | { kind: "http"; status: number; retryAfterSeconds: number | null };

/** The outcome is unknown or undecided (ask again with the key), or nothing ran yet (429). */
const RETRYABLE_STATUSES = new Set([409, 429, 502, 503, 504]);

export function isRetryable(failure: TryFailure): boolean {
  switch (failure.kind) {
    case "network":
    case "timeout":
      return true;
    case "cancelled":
      return false;
    case "http":
      return RETRYABLE_STATUSES.has(failure.status);
  }
}

/** Whether, and after how long, to retry after try `tryNumber` (from 1) failed `elapsedMs` after the first began. */
export function decideRetry(
  failure: TryFailure,
  tryNumber: number,
  elapsedMs: number,
  settings: RetrySettings,
  random: () => number = Math.random,
): { retry: boolean; delayMs: number } {
  if (!isRetryable(failure) || tryNumber >= settings.maxTries) return { retry: false, delayMs: 0 };
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (tryNumber - 1));
  const jittered = Math.floor(random() * ceiling);
  const retryAfterMs =
    failure.kind === "http" && failure.retryAfterSeconds !== null ? failure.retryAfterSeconds * 1000 : 0;
  const delayMs = Math.max(jittered, retryAfterMs);
  if (elapsedMs + delayMs >= settings.deadlineMs) return { retry: false, delayMs: 0 };
  return { retry: true, delayMs };
}

/** Reads Retry-After as delay-seconds or as an HTTP date. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
