import { CallerGoneError, KeyInProgressError, KeyReusedError } from "run-once";
import type { FinalErrors, Json } from "run-once";

/** Fields of Stripe's error object beyond type, code and message: `param`, or a decline's `decline_code`, `charge`, `payment_intent`. */
type ErrorDetails = Record<string, unknown>;

/** An error answer in Stripe's shape, `{ error: { type, code, message, ... } }`, with its HTTP status. */
export class ProviderError extends Error {
  /** The Request-Id of the request that executed it, when a key stores it (a replay names it as Original-Request). */
  request?: string;

  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = "ProviderError";
  }

  toJSON() {
    return { error: { type: this.type, code: this.code, message: this.message, ...this.details } };
  }
}

/** Stripe's invalid_request_error, with its status. */
export const requestError = (status: number, code: string, message: string, details: ErrorDetails = {}) =>
  new ProviderError(status, "invalid_request_error", code, message, undefined, details);

export const invalidRequest = (code: string, message: string, param?: string) =>
  requestError(400, code, message, param ? { param } : {});

/** A 404 in Stripe's words for an object the account does not have. */
export const missing = (object: string, id: string) =>
  requestError(404, "resource_missing", `No such ${object}: '${id}'`);

/** A retryable 503: nothing was done. */
export const unavailable = (message: string) =>
  new ProviderError(503, "api_error", "temporarily_unavailable", message, 1);

/** A card error (402): the card was refused, or its details are wrong. */
export const cardError = (code: string, message: string, details: ErrorDetails) =>
  new ProviderError(402, "card_error", code, message, undefined, details);

type StoredError = Pick<ProviderError, "status" | "type" | "code" | "message" | "details" | "request">;

/** A 4xx is an answer (a decline is stored and replayed); conflicts, throttles and 5xx are not. */
export const providerFinalErrors: FinalErrors = {
  isFinal: (error) =>
    error instanceof ProviderError &&
    error.status >= 400 &&
    error.status < 500 &&
    ![408, 409, 429].includes(error.status),
  encode: (error) => {
    const { status, type, code, message, details, request } = error as ProviderError;
    return JSON.parse(JSON.stringify({ status, type, code, message, details, request })) as Json;
  },
  decode: (stored) => {
    const { status, type, code, message, details, request } = stored as unknown as StoredError;
    return Object.assign(new ProviderError(status, type, code, message, undefined, details), { request });
  },
};

/** What a failed request is answered with: the core's errors with their statuses, anything unexpected as a retryable 503. */
export function asProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof KeyInProgressError) {
    return new ProviderError(
      409,
      "idempotency_error",
      "idempotency_key_in_use",
      error.message,
      error.retryAfterSeconds,
    );
  }
  if (error instanceof KeyReusedError) {
    // Stripe's status for a key reused with other parameters: its clients read 400 + idempotency_error as such.
    return new ProviderError(400, "idempotency_error", "idempotency_key_reused", error.message);
  }
  if (error instanceof CallerGoneError)
    return new ProviderError(499, "api_error", "client_closed_request", error.message);
  return unavailable(
    "The request failed before anything was committed. Retry with the same Idempotency-Key.",
  );
}
