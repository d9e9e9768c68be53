import { setTimeout as sleep } from "node:timers/promises";
import { IDEMPOTENCY_HEADERS } from "run-once/http";
import { decideRetry, parseRetryAfter } from "retry-policy";
import type { AttemptFailure, RetrySettings } from "retry-policy";
import { ProviderUnavailableError } from "./payment-provider";
import type { ChargeAnswer, PaymentProvider, ProviderCharge } from "./payment-provider";

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

interface ChargeJson {
  id: string;
  amount: number;
  card_last4: string;
  metadata: { order?: string };
  created: number;
}

/**
 * The payment provider over HTTP (provider/app.ts, or any Stripe-shaped API).
 * Unknown outcomes (no answer, a timeout, 409, 5xx) are retried with the same
 * key; a 402 is a decline; anything else is a bug and thrown.
 */
export class HttpPaymentProvider implements PaymentProvider {
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
    },
  ) {}

  async saveCard(cardNumber: string) {
    const method = await this.#send<{ id: string; card: { last4: string } }>("POST", "/v1/payment_methods", {
      body: { type: "card", card: { number: cardNumber } },
    });
    return { paymentMethodId: method.id, cardLast4: method.card.last4 };
  }

  async charge(
    request: { amountCents: number; paymentMethodId: string; orderId: string },
    idempotencyKey: string | null,
  ): Promise<ChargeAnswer> {
    const body = {
      amount: request.amountCents,
      currency: "usd",
      payment_method: request.paymentMethodId,
      metadata: { order: request.orderId },
    };
    try {
      return {
        charged: toCharge(
          await this.#send<ChargeJson>("POST", "/v1/charges", { body, idempotencyKey, retries: true }),
        ),
      };
    } catch (error) {
      if (error instanceof DeclinedError) return { declined: { reason: error.message } };
      throw error;
    }
  }

  async chargesOf(orderId: string, idempotencyKey?: string): Promise<ProviderCharge[]> {
    const query = {
      "metadata[order]": orderId,
      ...(idempotencyKey ? { idempotency_key: idempotencyKey } : {}),
    };
    const list = await this.#send<{ data: ChargeJson[] }>(
      "GET",
      `/v1/charges?${new URLSearchParams(query)}`,
      {},
    );
    return list.data.map(toCharge);
  }

  async #send<T>(
    method: "GET" | "POST",
    path: string,
    opts: { body?: unknown; idempotencyKey?: string | null; retries?: boolean },
  ): Promise<T> {
    const settings = this.opts.retry ?? PROVIDER_RETRY_SETTINGS;
    const keyForAttempt = this.opts.keyForAttempt ?? ((key) => key);
    const startedAt = Date.now();
    for (let attempt = 1; ; attempt++) {
      const key = keyForAttempt(opts.idempotencyKey ?? null, attempt);
      let failure: AttemptFailure;
      try {
        const response = await fetch(`${this.opts.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.opts.apiKey}`,
            "content-type": "application/json",
            ...(key === null ? {} : { [IDEMPOTENCY_HEADERS.key]: key }),
          },
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
          signal: AbortSignal.timeout(settings.attemptTimeoutMs),
        });
        // The body is part of the answer: one that breaks off midway is no answer.
        const text = await response.text();
        if (response.ok) return JSON.parse(text) as T;
        if (response.status === 402) throw new DeclinedError(errorMessageOf(text));
        failure = {
          kind: "http",
          status: response.status,
          retryAfterSeconds: parseRetryAfter(response.headers.get("Retry-After")),
        };
        if (failure.kind === "http" && ![409, 502, 503, 504].includes(failure.status)) {
          throw new Error(`The payment provider refused ${method} ${path} with ${response.status}: ${text}`);
        }
      } catch (error) {
        if (!isUnknownOutcome(error)) throw error;
        failure = (error as Error).name === "TimeoutError" ? { kind: "timeout" } : { kind: "network" };
      }
      const decision = opts.retries
        ? decideRetry(failure, attempt, Date.now() - startedAt, settings)
        : { retry: false, delayMs: 0 };
      if (!decision.retry) throw new ProviderUnavailableError(describe(failure));
      await sleep(decision.delayMs);
    }
  }
}

class DeclinedError extends Error {}

/** A failure that says nothing about whether the provider did the work: no answer, or half of one. */
function isUnknownOutcome(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof DeclinedError) return false;
  return error.name === "TimeoutError" || error.name === "AbortError" || error instanceof TypeError;
}

function describe(failure: AttemptFailure): string {
  return failure.kind === "http" ? `HTTP ${failure.status}` : failure.kind;
}

function errorMessageOf(text: string): string {
  try {
    return (JSON.parse(text) as { error: { message: string } }).error.message;
  } catch {
    return "The card was declined.";
  }
}

function toCharge(json: ChargeJson): ProviderCharge {
  return {
    id: json.id,
    amountCents: json.amount,
    cardLast4: json.card_last4,
    orderId: json.metadata.order ?? null,
    createdAt: new Date(json.created * 1000),
  };
}
