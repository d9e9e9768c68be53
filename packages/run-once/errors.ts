import type { RunOnceOutcome } from "./outcomes";

/** The core's own failures, each with a machine-readable reason an integration maps to its protocol in one place. */
export abstract class RunOnceError extends Error {
  abstract readonly reason: string;
  /** How the request ended, as the observer hears it. */
  abstract readonly outcome: RunOnceOutcome;
}

/** A duplicate waited its bound for an execution in progress: retry with the same key after `retryAfterSeconds`. */
export class KeyInProgressError extends RunOnceError {
  readonly reason = "IDEMPOTENCY_KEY_IN_PROGRESS";
  readonly outcome = "conflict";
  override readonly name = "KeyInProgressError";

  constructor(readonly retryAfterSeconds: number) {
    super(
      "A request with this idempotency key is still in progress. Retry with the same key after Retry-After seconds.",
    );
  }
}

/** The key was used with another request body: one key names one operation. */
export class KeyReusedError extends RunOnceError {
  readonly reason = "IDEMPOTENCY_KEY_REUSED";
  readonly outcome = "mismatch";
  override readonly name = "KeyReusedError";

  /** The state the key was found in: the grid's row that refused it. */
  constructor(readonly keyState: "in_progress" | "completed") {
    super(
      "This idempotency key was already used with a different request body. Use a new key for a new operation.",
    );
  }
}

/** This execution outlived its lease and another took the key over: nothing of it was committed. */
export class LeaseLostError extends RunOnceError {
  readonly reason = "IDEMPOTENCY_LEASE_LOST";
  readonly outcome = "lease_lost";
  override readonly name = "LeaseLostError";
  override readonly message =
    "This attempt ran past its lease and another attempt took the key over; nothing of this attempt was committed. Retry with the same key to get the outcome.";
}

/** The caller stopped waiting (its client went away); the execution goes on and its outcome is stored. */
export class CallerGoneError extends RunOnceError {
  readonly reason = "CALLER_GONE";
  readonly outcome = "abandoned";
  override readonly name = "CallerGoneError";
  override readonly message =
    "The client went away; the operation continues and its outcome will be replayed.";
}

/** A programming error: the operation returned without commit(); nothing is stored and the key is released. */
export class CommitMissingError extends RunOnceError {
  readonly reason = "IDEMPOTENCY_COMMIT_MISSING";
  readonly outcome = "released";
  override readonly name = "CommitMissingError";
  override readonly message =
    "The operation returned without calling commit(): its side effects would not commit with the key. Call commit().";
}
