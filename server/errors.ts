import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";

/**
 * Every failure the domain can name, mapped to its tRPC code (and so its HTTP
 * status) in this one table. Handlers throw `new DomainError(reason, message)`;
 * tRPC sends the mapped status, and the error formatter adds `reason` to the
 * body so that a client can branch on it without parsing messages.
 */
const CODE_BY_REASON = {
  UNKNOWN_PRODUCT: "BAD_REQUEST",
  ORDER_NOT_FOUND: "NOT_FOUND",
  AMOUNT_MISMATCH: "BAD_REQUEST",
  PAYMENT_KEY_MISMATCH: "BAD_REQUEST",
  ORDER_NOT_PAYABLE: "PRECONDITION_FAILED",
  CARD_DECLINED: "PAYMENT_REQUIRED",
  SESSION_REQUIRED: "UNAUTHORIZED",
  BODY_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  IDEMPOTENCY_KEY_MISSING: "BAD_REQUEST",
  IDEMPOTENCY_KEY_INVALID: "BAD_REQUEST",
  IDEMPOTENCY_KEY_CONFLICTING_SOURCES: "BAD_REQUEST",
  IDEMPOTENCY_KEY_REUSED: "UNPROCESSABLE_CONTENT",
  IDEMPOTENCY_KEY_IN_PROGRESS: "CONFLICT",
  IDEMPOTENCY_LEASE_LOST: "CONFLICT",
  TRANSIENT_FAILURE: "SERVICE_UNAVAILABLE",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
} as const satisfies Record<string, TRPC_ERROR_CODE_KEY>;

export type DomainErrorReason = keyof typeof CODE_BY_REASON;

export class DomainError extends TRPCError {
  readonly reason: DomainErrorReason;
  /** Sent as the Retry-After header: when a retry is worth making. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    reason: DomainErrorReason,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super({ code: CODE_BY_REASON[reason], message, cause: options.cause });
    this.name = "DomainError";
    this.reason = reason;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isDomainErrorReason(value: unknown): value is DomainErrorReason {
  return typeof value === "string" && Object.hasOwn(CODE_BY_REASON, value);
}
