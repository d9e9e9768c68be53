/** A charge as the payment provider keeps it. */
export interface ProviderCharge {
  id: string;
  amountCents: number;
  cardLast4: string;
  orderId: string | null;
  createdAt: Date;
}

/** What the shop asks the provider to charge: an order's amount, to a PaymentMethod the browser created. */
export interface PaymentRequest {
  amountCents: number;
  paymentMethodId: string;
  orderId: string;
}

/** The provider's final answer to a payment: charged, or declined (a 402, final for its key). */
export type ChargeAnswer = { charged: ProviderCharge } | { declined: { reason: string; cardLast4: string } };

/**
 * The payment service the shop charges through, in the shape of Stripe's
 * API: the browser creates a PaymentMethod from the card, so the shop only
 * ever holds its id, and every payment is sent under an idempotency key, so
 * that retrying an unknown outcome cannot charge twice. Swapped in the
 * services to test.
 */
export interface PaymentProvider {
  /**
   * Charges under `idempotencyKey` (a PaymentIntent confirmed on creation),
   * retrying unknown outcomes with the same key. Throws
   * ProviderUnavailableError when no attempt got a final answer.
   */
  charge(request: PaymentRequest, idempotencyKey: string): Promise<ChargeAnswer>;
  /**
   * The provider's charges of one order, for reconciliation; with
   * `idempotencyKey`, only those made under it: what a late recovery asks
   * instead of charging again once the provider may have forgotten the key.
   */
  chargesOf(orderId: string, idempotencyKey?: string): Promise<ProviderCharge[]>;
  /** The charge a PaymentIntent made, if it succeeded: what a webhook's event is checked against. */
  chargeOfIntent(paymentIntentId: string): Promise<ProviderCharge | null>;
  /** The card behind a PaymentMethod: its last four digits and its fingerprint, the same for every method of one card. */
  cardOf(paymentMethodId: string): Promise<{ last4: string; fingerprint: string }>;
}

/** No attempt got a final answer within the retry policy: the outcome at the provider is unknown. */
export class ProviderUnavailableError extends Error {
  constructor(lastFailure: string) {
    super(`The payment provider gave no final answer (last: ${lastFailure}); nothing was recorded.`);
    this.name = "ProviderUnavailableError";
  }
}
