import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { CallerGoneError, KeyInProgressError, KeyReusedError } from "run-once";
import { isDatabaseUnavailable } from "service-kit/db/database-unavailable";
import { NamedError } from "../errors";
import type { DomainErrorReason } from "../errors";
import { ProviderUnavailableError } from "../payment-provider/payment-provider";
import { ReasonedError } from "./reasoned-error";
import type { IdempotencyReason } from "./idempotency/idempotency-error";

/** Every reason the server sends, mapped to its tRPC code (and so its HTTP status) in this one table. */
const CODE_BY_REASON = {
  // The domain's (server/errors.ts).
  UNKNOWN_PRODUCT: "BAD_REQUEST",
  ORDER_NOT_FOUND: "NOT_FOUND",
  AMOUNT_MISMATCH: "BAD_REQUEST",
  PAYMENT_KEY_MISMATCH: "BAD_REQUEST",
  ORDER_NOT_PAYABLE: "PRECONDITION_FAILED",
  CARD_DECLINED: "PAYMENT_REQUIRED",
  CARD_IN_USE: "UNPROCESSABLE_CONTENT",
  // The provider may have charged; the completer settles it, so a retry with the key is safe.
  PAYMENT_UNCONFIRMED: "SERVICE_UNAVAILABLE",
  PAYMENT_NEEDS_REVIEW: "PRECONDITION_FAILED",
  SESSION_REQUIRED: "UNAUTHORIZED",
  BODY_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  // The fault lab's (server/lab/lab-error.ts names its errors by these keys: the shop does not import the lab).
  NO_COMPLETED_KEY: "PRECONDITION_FAILED",
  PITFALL_MODE_OFF: "PRECONDITION_FAILED",
  // The run-once adapter's (run-once/idempotency-error.ts).
  IDEMPOTENCY_KEY_MISSING: "BAD_REQUEST",
  IDEMPOTENCY_KEY_INVALID: "BAD_REQUEST",
  IDEMPOTENCY_KEY_CONFLICTING_SOURCES: "BAD_REQUEST",
  IDEMPOTENCY_KEY_REUSED: "UNPROCESSABLE_CONTENT",
  IDEMPOTENCY_KEY_IN_PROGRESS: "CONFLICT",
  // The throttle's and the adapter's: nothing was done, so a retry is safe.
  TRANSIENT_FAILURE: "SERVICE_UNAVAILABLE",
  // The payment provider gave no answer: a moment to wait, never a 500.
  PROVIDER_UNAVAILABLE: "SERVICE_UNAVAILABLE",
  // Briefly unreachable (database-unavailable.ts): nothing was answered, so a retry is safe.
  DATABASE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
} as const satisfies Record<DomainErrorReason | IdempotencyReason, TRPC_ERROR_CODE_KEY> &
  Record<string, TRPC_ERROR_CODE_KEY>;

/** Every reason the server may send; an error of the server's names one. */
export type MappedReason = keyof typeof CODE_BY_REASON;

interface NamedFailure {
  reason: MappedReason;
  message: string;
  cause?: unknown;
  retryAfterSeconds?: number;
}

/** The one place a thrown error becomes what tRPC sends: by reason, caller gone as 499, else as is or 500. */
export function toTrpcError(error: unknown): TRPCError {
  // tRPC hands a middleware what a procedure threw as the cause of a 500.
  const thrown = error instanceof TRPCError && error.code === "INTERNAL_SERVER_ERROR" ? error.cause : error;
  const named = namedFailure(thrown);
  if (named) {
    return new ReasonedError(CODE_BY_REASON[named.reason], named.reason, named.message, {
      cause: named.cause,
      retryAfterSeconds: named.retryAfterSeconds,
    });
  }
  if (thrown instanceof CallerGoneError) {
    return new TRPCError({ code: "CLIENT_CLOSED_REQUEST", message: thrown.message, cause: thrown });
  }
  return error instanceof TRPCError ? error : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });
}

/** The server's own errors (the domain's, the lab's, the adapter's), the run-once core's in the adapter's words, and the database's. */
function namedFailure(error: unknown): NamedFailure | null {
  if (error instanceof NamedError && Object.hasOwn(CODE_BY_REASON, error.reason))
    return error as NamedError<MappedReason>;
  if (error instanceof KeyInProgressError) {
    return {
      reason: "IDEMPOTENCY_KEY_IN_PROGRESS",
      message: error.message,
      cause: error,
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  if (error instanceof KeyReusedError) return { reason: "IDEMPOTENCY_KEY_REUSED", message: error.message };
  if (error instanceof ProviderUnavailableError) {
    return { reason: "PROVIDER_UNAVAILABLE", message: error.message, cause: error, retryAfterSeconds: 2 };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      reason: "DATABASE_UNAVAILABLE",
      message: "The database was briefly unavailable. Try again in a moment.",
      cause: error,
      retryAfterSeconds: 1,
    };
  }
  return null;
}
