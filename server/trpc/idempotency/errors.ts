import type { TRPCError } from "@trpc/server";
import { RunOnceError } from "run-once";
import { toTrpcError } from "../error-mapping";
import { IdempotencyError } from "./idempotency-error";

/** A run-once failure for tRPC: the unexpected as a retryable 503, a missing commit as 500. */
export function asTrpcError(error: unknown): TRPCError {
  const mapped = toTrpcError(error);
  if (mapped.code !== "INTERNAL_SERVER_ERROR" || isCommitMissing(error)) return mapped;
  return toTrpcError(
    new IdempotencyError(
      "TRANSIENT_FAILURE",
      "The operation failed before it was committed, so nothing happened. Retry with the same key.",
      { cause: error, retryAfterSeconds: 1 },
    ),
  );
}

/** The core's CommitMissingError, by its reason: the one core error that is a bug in the caller. */
function isCommitMissing(error: unknown): boolean {
  return error instanceof RunOnceError && error.reason === "IDEMPOTENCY_COMMIT_MISSING";
}
