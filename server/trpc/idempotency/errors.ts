import type { TRPCError } from "@trpc/server";
import { RunOnceError } from "run-once";
import { toTrpcError } from "../error-mapping";
import { IdempotencyError } from "./idempotency-error";

/** A run-once failure for tRPC: the unexpected as a retryable 503, a missing commit (a caller's bug) as 500. */
export function asTrpcError(error: unknown): TRPCError {
  const mapped = toTrpcError(error);
  const commitMissing = error instanceof RunOnceError && error.reason === "IDEMPOTENCY_COMMIT_MISSING";
  if (mapped.code !== "INTERNAL_SERVER_ERROR" || commitMissing) return mapped;
  return toTrpcError(
    new IdempotencyError(
      "TRANSIENT_FAILURE",
      "The operation failed before it was committed, so nothing happened. Retry with the same key.",
      { cause: error, retryAfterSeconds: 1 },
    ),
  );
}
