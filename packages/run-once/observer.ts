import type { KeyScope } from "./types";

/**
 * Every way a run-once request can end: the decisions that produced an
 * outcome, then the refusals: conflict (still in progress past the wait
 * bound), mismatch (the key was used with another body), refused (the
 * operation refused the request before any write: nothing stored, the key
 * freed), released (a failure before commit freed the key), lease_lost (the
 * attempt was fenced off) and abandoned (the caller went away).
 */
export const RUN_ONCE_OUTCOMES = [
  "executed",
  "replayed",
  "coalesced",
  "taken_over",
  "expired",
  "conflict",
  "mismatch",
  "refused",
  "released",
  "lease_lost",
  "abandoned",
] as const;

export type RunOnceOutcome = (typeof RUN_ONCE_OUTCOMES)[number];

export interface RunOnceEvent {
  scope: KeyScope;
  outcome: RunOnceOutcome;
  durationMs: number;
}

/** Told of every run-once request's end: logs and metrics listen. */
export interface RunOnceObserver {
  observe(event: RunOnceEvent): void;
}

/** Tells every observer, in order. */
export function allOf(...observers: RunOnceObserver[]): RunOnceObserver {
  return { observe: (event) => observers.forEach((observer) => observer.observe(event)) };
}
