import Stripe from "stripe";
import { parseRetryAfter } from "retry-policy";
import type { TryFailure } from "retry-policy";

/** Statuses that say nothing final about the work: a key in use elsewhere, a gateway or the provider down. */
const UNKNOWN_OUTCOME_STATUSES = [409, 502, 503, 504];

/** The provider declined the card: a final answer for its key. */
export class CardDeclinedError extends Error {
  override name = "CardDeclinedError";

  constructor(
    message: string,
    readonly cardLast4: string,
  ) {
    super(message);
  }
}

/** Stripe's errors in the shop's terms: unknown outcome to retry, decline, or bug (thrown). */
export function failureOf(error: unknown): TryFailure {
  if (error instanceof Stripe.errors.StripeCardError) {
    throw new CardDeclinedError(messageOf(error), error.payment_method?.card?.last4 ?? "");
  }
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return /timeout/i.test(error.message) ? { kind: "timeout" } : { kind: "network" };
  }
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  // A reply that broke off or did not parse is no answer at all.
  if (error.statusCode === undefined) return { kind: "network" };
  if (!UNKNOWN_OUTCOME_STATUSES.includes(error.statusCode)) {
    throw new Error(
      `The payment provider refused the request with ${error.statusCode} ${error.type}: ${messageOf(error)}`,
      { cause: error },
    );
  }
  const retryAfter = (error.headers as Record<string, string | undefined> | undefined)?.["retry-after"];
  return { kind: "http", status: error.statusCode, retryAfterSeconds: parseRetryAfter(retryAfter ?? null) };
}

/** The provider's own sentence: the client puts the reply's Request-Id before it in `message`. */
function messageOf(error: Stripe.errors.StripeError): string {
  return (error.raw as { message?: string }).message ?? error.message;
}
