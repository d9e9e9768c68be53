import { setTimeout as sleep } from "node:timers/promises";
import Stripe from "stripe";
import { decideRetry } from "retry-policy";
import type { AttemptFailure, RetrySettings } from "retry-policy";
import { IDEMPOTENCY_HEADERS } from "run-once/http";
import { CardDeclinedError, failureOf } from "./stripe-errors";
import { ProviderUnavailableError } from "./payment-provider";
import type { CardKey, ChargeAnswer, PaymentProvider, ProviderCharge } from "./payment-provider";

/** One call to the provider under a key, as the shop sent it. */
export interface ProviderCall {
  orderId: string;
  path: string;
  key: string;
  /** Which try of the retry policy this is, from 1. */
  attempt: number;
}

/** What came back: the status and the provider's Idempotency-Decision, or no reply at all (both null). */
export interface ProviderReply {
  status: number | null;
  decision: string | null;
}

/** Told of every keyed call as it leaves; returns what to tell when its reply comes, or fails to. */
export type ProviderCallObserver = (call: ProviderCall) => (reply: ProviderReply) => void;

/** How long the provider holds a duplicate of a charge in progress before its 409 (Stripe-like; provider/ IDEMPOTENCY_WAIT_MS). */
export const PROVIDER_WAIT_BOUND_MS = 5_000;

/**
 * The retry policy of the shop's calls to the provider: the browser's policy
 * (full-jitter backoff, an attempt cap, a per-attempt timeout, an overall
 * deadline). Each attempt outlasts the provider's wait bound, so that its 409
 * idempotency_key_in_use, and its Retry-After, reach the shop.
 */
export const PROVIDER_RETRY_SETTINGS: RetrySettings = {
  maxAttempts: 5,
  baseDelayMs: 200,
  maxDelayMs: 2_000,
  attemptTimeoutMs: PROVIDER_WAIT_BOUND_MS + 3_000,
  deadlineMs: 20_000,
};

/**
 * The payment provider through Stripe's official client: provider/app.ts, or
 * Stripe itself with a real sk_test_ key (PAYMENT_PROVIDER_URL=https://api.stripe.com).
 * Unknown outcomes (no answer, a timeout, 409, 5xx) are retried with the same
 * key; a card error is a decline; anything else is a bug and thrown.
 */
export class HttpPaymentProvider implements PaymentProvider {
  readonly #stripe: Stripe;

  constructor(
    private readonly opts: {
      url: string;
      apiKey: string;
      retry?: RetrySettings;
      /**
       * The key each attempt sends. The default sends the operation's key on
       * every attempt; the lab's counter-example mints one per attempt.
       */
      keyForAttempt?: (key: string | null, attempt: number) => string | null;
      onCall?: ProviderCallObserver;
    },
  ) {
    const url = new URL(opts.url);
    this.#stripe = new Stripe(opts.apiKey, {
      host: url.hostname,
      port: url.port || (url.protocol === "https:" ? 443 : 80),
      protocol: url.protocol === "https:" ? "https" : "http",
      // The shop's retry policy decides, with the shop's keys (see #send): the client never retries by itself.
      maxNetworkRetries: 0,
      telemetry: false,
    });
  }

  async saveCard(cardNumber: string, keyed?: CardKey) {
    const method = await this.#send(
      (options) =>
        this.#stripe.paymentMethods.create({ type: "card", card: { number: cardNumber } }, options),
      {
        idempotencyKey: keyed?.idempotencyKey ?? null,
        retries: keyed !== undefined,
        orderId: keyed?.orderId ?? "",
      },
      "POST /v1/payment_methods",
    );
    return { paymentMethodId: method.id, cardLast4: method.card?.last4 ?? "" };
  }

  async charge(
    request: { amountCents: number; paymentMethodId: string; orderId: string },
    idempotencyKey: string | null,
  ): Promise<ChargeAnswer> {
    const params = {
      amount: request.amountCents,
      currency: "usd",
      source: request.paymentMethodId,
      metadata: {
        order: request.orderId,
        ...(idempotencyKey === null ? {} : { idempotency_key: idempotencyKey }),
      },
    };
    try {
      const charge = await this.#send(
        (options) => this.#stripe.charges.create(params, options),
        { idempotencyKey, retries: true, orderId: request.orderId },
        "POST /v1/charges",
      );
      return { charged: toCharge(charge) };
    } catch (error) {
      if (error instanceof CardDeclinedError) return { declined: { reason: error.message } };
      throw error;
    }
  }

  async chargesOf(orderId: string, idempotencyKey?: string): Promise<ProviderCharge[]> {
    const byKey = idempotencyKey === undefined ? "" : ` AND metadata['idempotency_key']:'${idempotencyKey}'`;
    const query = `metadata['order']:'${orderId}'${byKey}`;
    const found = await this.#send(
      (options) => this.#stripe.charges.search({ query, limit: 100 }, options),
      { idempotencyKey: null, retries: false, orderId },
      "GET /v1/charges/search",
    );
    return found.data.map(toCharge);
  }

  async #send<T>(
    call: (options: Stripe.RequestOptions) => Promise<Stripe.Response<T>>,
    opts: { idempotencyKey: string | null; retries: boolean; orderId: string },
    path: string,
  ): Promise<T> {
    const settings = this.opts.retry ?? PROVIDER_RETRY_SETTINGS;
    const keyForAttempt = this.opts.keyForAttempt ?? ((key) => key);
    const startedAt = Date.now();
    for (let attempt = 1; ; attempt++) {
      const key = keyForAttempt(opts.idempotencyKey, attempt);
      const replied =
        key === null ? undefined : this.opts.onCall?.({ orderId: opts.orderId, path, key, attempt });
      let failure: AttemptFailure;
      try {
        // The key is the shop's, given on every call: the client's own key is made per call and dies with
        // it, while a retry, a restarted shop or the completer must send the payment's key again.
        const answer = await call({
          timeout: settings.attemptTimeoutMs,
          ...(key === null ? {} : { idempotencyKey: key }),
        });
        replied?.(replyOf(answer.lastResponse));
        return answer;
      } catch (error) {
        replied?.(
          error instanceof Stripe.errors.StripeError ? replyOf(error) : { status: null, decision: null },
        );
        failure = failureOf(error);
      }
      const decision = opts.retries
        ? decideRetry(failure, attempt, Date.now() - startedAt, settings)
        : { retry: false, delayMs: 0 };
      if (!decision.retry) throw new ProviderUnavailableError(describe(failure));
      await sleep(decision.delayMs);
    }
  }
}

/** The status and the provider's decision, from an answer or an error; a reply that broke off is none. */
function replyOf(answer: {
  statusCode?: number;
  headers?: Record<string, string | string[] | undefined>;
}): ProviderReply {
  const decision = answer.headers?.[IDEMPOTENCY_HEADERS.decision.toLowerCase()];
  return {
    status: answer.statusCode ?? null,
    decision: typeof decision === "string" ? decision : answer.statusCode === 409 ? "conflict" : null,
  };
}

function describe(failure: AttemptFailure): string {
  return failure.kind === "http" ? `HTTP ${failure.status}` : failure.kind;
}

function toCharge(charge: Stripe.Charge): ProviderCharge {
  return {
    id: charge.id,
    amountCents: charge.amount,
    cardLast4: charge.payment_method_details?.card?.last4 ?? "",
    orderId: charge.metadata.order ?? null,
    createdAt: new Date(charge.created * 1000),
  };
}
