/** A charge as the payment provider keeps it. */
export interface ProviderCharge {
  id: string;
  amountCents: number;
  cardLast4: string;
  orderId: string | null;
  createdAt: Date;
}

/** The key a card is saved under, and the order it is saved for. */
export interface CardKey {
  orderId: string;
  idempotencyKey: string;
}

/** The provider's final answer to a charge: charged, or declined (a 402, final for its key). */
export type ChargeAnswer = { charged: ProviderCharge } | { declined: { reason: string } };

/**
 * The payment service the shop charges through, in the shape of a card
 * processor's API (Stripe's): cards are saved once and charged by their
 * token, and every charge is sent under an idempotency key, so that retrying
 * an unknown outcome cannot charge twice. Swapped in the services to test.
 */
export interface PaymentProvider {
  /**
   * Saves a card at the provider; its token stands for it in every later
   * charge, and in a recovery. Under its order's `idempotencyKey`, a retry gets the same token.
   */
  saveCard(cardNumber: string, keyed?: CardKey): Promise<{ paymentMethodId: string; cardLast4: string }>;
  /**
   * Charges under `idempotencyKey` (null: none, the counter-example),
   * retrying unknown outcomes with the same key. Throws
   * ProviderUnavailableError when no attempt got a final answer.
   */
  charge(
    request: { amountCents: number; paymentMethodId: string; orderId: string },
    idempotencyKey: string | null,
  ): Promise<ChargeAnswer>;
  /**
   * The provider's charges of one order, for reconciliation; with
   * `idempotencyKey`, only those made under it: what a late recovery asks
   * instead of charging again once the provider may have forgotten the key.
   */
  chargesOf(orderId: string, idempotencyKey?: string): Promise<ProviderCharge[]>;
}

/** No attempt got a final answer within the retry policy: the outcome at the provider is unknown. */
export class ProviderUnavailableError extends Error {
  constructor(lastFailure: string) {
    super(`The payment provider gave no final answer (last: ${lastFailure}); nothing was recorded.`);
    this.name = "ProviderUnavailableError";
  }
}
