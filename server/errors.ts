/** Every failure the shop names; error-mapping.ts gives each its status and `error.data.reason`. */
export type DomainErrorReason =
  | "UNKNOWN_PRODUCT"
  | "ORDER_NOT_FOUND"
  | "AMOUNT_MISMATCH"
  | "PAYMENT_KEY_MISMATCH"
  | "ORDER_NOT_PAYABLE"
  | "CARD_DECLINED"
  | "CARD_IN_USE"
  | "PAYMENT_UNCONFIRMED"
  | "PAYMENT_NEEDS_REVIEW"
  | "SESSION_REQUIRED"
  | "BODY_TOO_LARGE"
  | "RATE_LIMITED"
  | "TRANSIENT_FAILURE"
  | "PROVIDER_UNAVAILABLE";

/** A failure the server names: its reason, and when a retry is worth making (Retry-After). */
export class NamedError<Reason extends string> extends Error {
  constructor(
    readonly reason: Reason,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  readonly retryAfterSeconds: number | undefined;
}

export class DomainError extends NamedError<DomainErrorReason> {
  override name = "DomainError";
}
