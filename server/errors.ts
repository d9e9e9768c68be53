/**
 * Every failure the shop names. Handlers throw `new DomainError(reason, message)`;
 * the tRPC layer maps the reason to its status in one place
 * (server/trpc/error-mapping.ts) and adds it to the body (`error.data.reason`),
 * so that a client can branch on it without parsing messages.
 */
export type DomainErrorReason =
  | "UNKNOWN_PRODUCT"
  | "ORDER_NOT_FOUND"
  | "AMOUNT_MISMATCH"
  | "PAYMENT_KEY_MISMATCH"
  | "ORDER_NOT_PAYABLE"
  | "CARD_DECLINED"
  | "SESSION_REQUIRED"
  | "BODY_TOO_LARGE"
  | "RATE_LIMITED"
  | "TRANSIENT_FAILURE";

export class DomainError extends Error {
  constructor(
    readonly reason: DomainErrorReason,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "DomainError";
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** When a retry is worth making, in seconds: sent as Retry-After. */
  readonly retryAfterSeconds: number | undefined;
}
