import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ReasonedError } from "./trpc/reasoned-error";

/**
 * Every failure the domain can name, mapped to its tRPC code (and so its HTTP
 * status) in this one table. Handlers throw `new DomainError(reason, message)`;
 * tRPC sends the mapped status, and the error formatter adds `reason` to the
 * body so that a client can branch on it without parsing messages. (The
 * idempotency reasons live with the run-once adapter.)
 */
const CODE_BY_REASON = {
  UNKNOWN_PRODUCT: "BAD_REQUEST",
  ORDER_NOT_FOUND: "NOT_FOUND",
  AMOUNT_MISMATCH: "BAD_REQUEST",
  PAYMENT_KEY_MISMATCH: "BAD_REQUEST",
  ORDER_NOT_PAYABLE: "PRECONDITION_FAILED",
  NO_COMPLETED_KEY: "PRECONDITION_FAILED",
  PITFALL_MODE_OFF: "PRECONDITION_FAILED",
  CARD_DECLINED: "PAYMENT_REQUIRED",
  SESSION_REQUIRED: "UNAUTHORIZED",
  BODY_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
} as const satisfies Record<string, TRPC_ERROR_CODE_KEY>;

export type DomainErrorReason = keyof typeof CODE_BY_REASON;

export class DomainError extends ReasonedError {
  declare readonly reason: DomainErrorReason;

  constructor(
    reason: DomainErrorReason,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(CODE_BY_REASON[reason], reason, message, options);
    this.name = "DomainError";
  }
}

export function isDomainErrorReason(value: unknown): value is DomainErrorReason {
  return typeof value === "string" && Object.hasOwn(CODE_BY_REASON, value);
}
