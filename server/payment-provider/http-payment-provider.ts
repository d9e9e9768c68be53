import { setTimeout as sleep } from "node:timers/promises";
import Stripe from "stripe";
import { decideRetry } from "retry-policy";
import type { TryFailure, RetrySettings } from "retry-policy";
import { IDEMPOTENCY_HEADERS } from "run-once/http";
import { CardDeclinedError, failureOf } from "./stripe-errors";
import { z } from "zod";
import { ProviderUnavailableError, webhookTrySchema } from "./payment-provider";
import type {
  CallRecorder,
  ChargeAnswer,
  PaymentProvider,
  PaymentRequest,
  ProviderCharge,
  ProviderReply,
  WebhookTry,
} from "./payment-provider";

/** How long the provider holds a duplicate of a charge in progress before its 409 (Stripe-like; provider/ IDEMPOTENCY_WAIT_MS). */
export const PROVIDER_WAIT_BOUND_MS = 5_000;

/** Each try outlasts the provider's wait bound, so its 409 and Retry-After reach the shop. */
export const PROVIDER_RETRY_SETTINGS: RetrySettings = {
  maxTries: 5,
  baseDelayMs: 200,
  maxDelayMs: 2_000,
  tryTimeoutMs: PROVIDER_WAIT_BOUND_MS + 3_000,
  deadlineMs: 20_000,
};

/** The provider through Stripe's client: unknown outcomes retried with the same key. */
export class HttpPaymentProvider implements PaymentProvider {
  readonly #stripe: Stripe;

  constructor(
    private readonly opts: {
      url: string;
      apiKey: string;
      retry?: RetrySettings;
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

  async charge(request: PaymentRequest, idempotencyKey: string): Promise<ChargeAnswer> {
    const params: Stripe.PaymentIntentCreateParams = {
      amount: request.amountCents,
      currency: "usd",
      payment_method: request.paymentMethodId,
      confirm: true,
      // A late look-up and an event find the payment by it once the call's key is forgotten.
      metadata: { order: request.orderId, payment_key: request.paymentKey },
      expand: ["latest_charge"],
    };
    try {
      const intent = await this.#send(
        (options) => this.#stripe.paymentIntents.create(params, options),
        { idempotencyKey, orderId: request.orderId, paymentKey: request.paymentKey, run: request.run },
        "POST /v1/payment_intents",
      );
      // A replay names the request that made the charge; a first execution is that request.
      const made = intent.lastResponse.headers["original-request"] ?? intent.lastResponse.requestId;
      return { charged: { ...chargeOf(intent)!, requestId: made ?? null } };
    } catch (error) {
      if (error instanceof CardDeclinedError) {
        return { declined: { reason: error.message, cardLast4: error.cardLast4 } };
      }
      throw error;
    }
  }

  async chargesOf(orderId: string, paymentKey?: string): Promise<ProviderCharge[]> {
    const byKey = paymentKey === undefined ? "" : ` AND metadata['payment_key']:'${paymentKey}'`;
    const query = `metadata['order']:'${orderId}'${byKey}`;
    const found = await this.#send(
      (options) =>
        this.#stripe.paymentIntents.search({ query, limit: 100, expand: ["data.latest_charge"] }, options),
      { orderId },
      "GET /v1/payment_intents/search",
    );
    return found.data.flatMap((intent) => chargeOf(intent) ?? []);
  }

  async chargeOfIntent(paymentIntentId: string): Promise<ProviderCharge | null> {
    const intent = await this.#send(
      (options) =>
        this.#stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge"] }, options),
      { orderId: "" },
      "GET /v1/payment_intents",
    );
    return chargeOf(intent);
  }

  async cardOf(paymentMethodId: string) {
    const method = await this.#send(
      (options) => this.#stripe.paymentMethods.retrieve(paymentMethodId, {}, options),
      { orderId: "" },
      "GET /v1/payment_methods",
    );
    return { last4: method.card?.last4 ?? "", fingerprint: method.card?.fingerprint ?? "" };
  }

  /** The account's events in a range of seconds not yet delivered (answered 2xx), page after page, newest first. */
  undeliveredEvents(created: { gt: number; lte: number }): AsyncIterable<Stripe.Event> {
    return this.#stripe.events.list({ created, delivery_success: false, limit: 100 });
  }

  async webhookTriesOf(orderId: string): Promise<WebhookTry[] | null> {
    // The provider's test helper (Stripe has none: there, and with the provider down, the shop's record alone).
    const list: unknown = await this.#stripe
      .rawRequest("GET", `/v1/test_helpers/webhook_deliveries?${new URLSearchParams({ order: orderId })}`)
      .catch(() => null);
    return triesSchema.safeParse(list).data?.data ?? null;
  }

  /** One call under the retry policy: a POST under the shop's key; a GET as it is. */
  async #send<T>(
    call: (options: Stripe.RequestOptions) => Promise<Stripe.Response<T>>,
    opts: { idempotencyKey?: string; orderId: string; paymentKey?: string; run?: CallRecorder | null },
    path: string,
  ): Promise<Stripe.Response<T>> {
    const settings = this.opts.retry ?? PROVIDER_RETRY_SETTINGS;
    const key = opts.idempotencyKey;
    const startedAt = Date.now();
    for (let tryNumber = 1; ; tryNumber++) {
      // Keyed calls are the account's (a read changes nothing at the provider), each on record before it leaves.
      const replied =
        key === undefined
          ? undefined
          : await opts.run?.called({
              orderId: opts.orderId,
              path,
              key,
              paymentKey: opts.paymentKey ?? null,
              try: tryNumber,
            });
      let failure: TryFailure;
      try {
        // The shop's key on every call: the client's own dies with the call.
        const answer = await call({
          timeout: settings.tryTimeoutMs,
          ...(key === undefined ? {} : { idempotencyKey: key }),
        });
        replied?.(replyOf(answer.lastResponse));
        return answer;
      } catch (error) {
        replied?.(replyOf(error instanceof Stripe.errors.StripeError ? error : {}));
        failure = failureOf(error);
      }
      const decision = decideRetry(failure, tryNumber, Date.now() - startedAt, settings);
      if (!decision.retry)
        throw new ProviderUnavailableError(failure.kind === "http" ? `HTTP ${failure.status}` : failure.kind);
      await sleep(decision.delayMs);
    }
  }
}

/** The status, the provider's decision and its request id, from an answer or an error; a reply that broke off is none. */
function replyOf(answer: {
  statusCode?: number;
  requestId?: string;
  headers?: Record<string, string | string[] | undefined>;
}): ProviderReply {
  if (answer.statusCode === undefined) return { status: null, decision: null, requestId: null };
  const decision = answer.headers?.[IDEMPOTENCY_HEADERS.decision.toLowerCase()];
  return {
    status: answer.statusCode,
    decision: typeof decision === "string" ? decision : answer.statusCode === 409 ? "conflict" : null,
    requestId: answer.requestId ?? null,
  };
}

const triesSchema = z.object({
  data: z.array(
    webhookTrySchema
      .omit({ durationMs: true })
      .extend({ duration_ms: z.number().int().nullable() })
      .transform(({ duration_ms, ...sent }) => ({ ...sent, durationMs: duration_ms })),
  ),
});

/** The charge a PaymentIntent made, from its expanded latest charge; none unless it succeeded. */
function chargeOf(intent: Stripe.PaymentIntent): ProviderCharge | null {
  const charge = intent.latest_charge;
  if (intent.status !== "succeeded" || charge === null || typeof charge === "string") return null;
  return {
    id: charge.id,
    amountCents: charge.amount,
    cardLast4: charge.payment_method_details?.card?.last4 ?? "",
    orderId: intent.metadata.order ?? null,
    createdAt: new Date(charge.created * 1000),
    requestId: null,
  };
}
