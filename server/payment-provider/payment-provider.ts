import { z } from "zod";

export interface ProviderCharge {
  id: string;
  amountCents: number;
  cardLast4: string;
  orderId: string | null;
  createdAt: Date;
  /** The provider's id of the request that made it (a replay's Original-Request, an event's request); null when unknown. */
  requestId: string | null;
}

/** What the shop asks the provider to charge: an order's amount, to a PaymentMethod the browser created. */
export interface PaymentRequest {
  amountCents: number;
  paymentMethodId: string;
  orderId: string;
  /** The payment's key, sent as its own metadata field (payment_key): what a look-up and an event find it by. */
  paymentKey: string;
  /** The run that sends it: each try is on its record before it leaves. */
  run: CallRecorder | null;
}

/** One try of a keyed call to the provider, as the shop sends it. */
export interface ProviderCall {
  orderId: string;
  path: string;
  key: string;
  paymentKey: string | null;
  try: number;
}

/** What came back: the status, the provider's Idempotency-Decision and its Request-Id; all null with no reply at all. */
export interface ProviderReply {
  status: number | null;
  decision: string | null;
  requestId: string | null;
}

/** Told of each try before it leaves (and waited for: its record is written first), then of its reply. */
export interface CallRecorder {
  called(call: ProviderCall): Promise<(reply: ProviderReply) => void>;
}

/** One try of the provider's webhook delivery, as the provider's own record has it (its test helper). */
export const webhookTrySchema = z.object({
  id: z.string(),
  event: z.string(),
  type: z.string(),
  try: z.number().int(),
  at: z.iso.datetime({ offset: true }),
  /** The shop's status; null in flight, or when no answer came (then `error` says why). */
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int().nullable(),
});
export type WebhookTry = z.infer<typeof webhookTrySchema>;

/** The provider's final answer to a payment: charged, or declined (a 402, final for its key). */
export type ChargeAnswer = { charged: ProviderCharge } | { declined: { reason: string; cardLast4: string } };

/** The payment service, in Stripe's shape: the shop holds only a PaymentMethod's id. */
export interface PaymentProvider {
  /** Charges under the key, retrying unknown outcomes with it; ProviderUnavailableError when none got a final answer. */
  charge(request: PaymentRequest, idempotencyKey: string): Promise<ChargeAnswer>;
  /** An order's charges (reconciliation), or one payment's: what a late recovery asks once the key may be forgotten. */
  chargesOf(orderId: string, paymentKey?: string): Promise<ProviderCharge[]>;
  /** The charge a PaymentIntent made, if it succeeded: what a webhook's event is checked against. */
  chargeOfIntent(paymentIntentId: string): Promise<ProviderCharge | null>;
  /** The card behind a PaymentMethod: its last four digits and its fingerprint, the same for every method of one card. */
  cardOf(paymentMethodId: string): Promise<{ last4: string; fingerprint: string }>;
  /** Every try of the provider's webhook deliveries for an order, oldest first; null where the provider keeps none it shows. */
  webhookTriesOf(orderId: string): Promise<WebhookTry[] | null>;
}

/** No try got a final answer within the retry policy: the outcome at the provider is unknown. */
export class ProviderUnavailableError extends Error {
  constructor(lastFailure: string) {
    super(`The payment provider gave no final answer (last: ${lastFailure}); nothing was recorded.`);
    this.name = "ProviderUnavailableError";
  }
}
