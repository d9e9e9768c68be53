import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { CallerGoneError, KeyInProgressError, KeyReusedError, LeaseLostError, RunOnceError } from "run-once";
import { ReasonedError } from "../reasoned-error";

/** The idempotency reasons and their codes, in one table: the adapter's own, and the core's errors. */
const CODE_BY_REASON = {
  IDEMPOTENCY_KEY_MISSING: "BAD_REQUEST",
  IDEMPOTENCY_KEY_INVALID: "BAD_REQUEST",
  IDEMPOTENCY_KEY_CONFLICTING_SOURCES: "BAD_REQUEST",
  IDEMPOTENCY_KEY_REUSED: "UNPROCESSABLE_CONTENT",
  IDEMPOTENCY_KEY_IN_PROGRESS: "CONFLICT",
  IDEMPOTENCY_LEASE_LOST: "CONFLICT",
  TRANSIENT_FAILURE: "SERVICE_UNAVAILABLE",
} as const satisfies Record<string, TRPC_ERROR_CODE_KEY>;

export type IdempotencyReason = keyof typeof CODE_BY_REASON;

export class IdempotencyError extends ReasonedError {
  constructor(
    reason: IdempotencyReason,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(CODE_BY_REASON[reason], reason, message, options);
    this.name = "IdempotencyError";
  }
}

/**
 * What a run-once call failed with, as tRPC sends it: the core's errors with
 * their statuses, a refusal as the handler threw it, and anything unexpected
 * as a retryable 503, since nothing of it was committed.
 */
export function asTrpcError(error: unknown): TRPCError {
  if (error instanceof KeyInProgressError) {
    return new IdempotencyError("IDEMPOTENCY_KEY_IN_PROGRESS", error.message, {
      cause: error,
      retryAfterSeconds: error.retryAfterSeconds,
    });
  }
  if (error instanceof KeyReusedError) return new IdempotencyError("IDEMPOTENCY_KEY_REUSED", error.message);
  if (error instanceof LeaseLostError) return new IdempotencyError("IDEMPOTENCY_LEASE_LOST", error.message);
  if (error instanceof CallerGoneError) {
    return new TRPCError({ code: "CLIENT_CLOSED_REQUEST", message: error.message, cause: error });
  }
  // A handler that forgot commit() is a bug, not a transient failure: 500, logged in full.
  if (error instanceof RunOnceError && error.reason === "IDEMPOTENCY_COMMIT_MISSING") {
    return new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: error.message, cause: error });
  }
  if (error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR") return error;
  return new IdempotencyError(
    "TRANSIENT_FAILURE",
    "The operation failed before it was committed, so nothing happened. Retry with the same key.",
    { cause: error, retryAfterSeconds: 1 },
  );
}
