import type { CardKey, ChargeAnswer, PaymentProvider } from "../server/payment-provider/payment-provider";

/**
 * The shop's real provider client with hooks for tests: count its charges,
 * hold one before it is sent until the test releases it, or fail after the
 * provider answered (the shop then records nothing, and a retry is replayed).
 */
export class ControllableProvider implements PaymentProvider {
  chargeCalls = 0;
  /** Awaited before a charge is sent: a test can keep an execution in flight. */
  beforeCharge: (() => Promise<void>) | undefined;
  /** Called once the provider answered, before the shop records it. */
  afterCharge: (() => Promise<void>) | undefined;
  #inner: PaymentProvider | undefined;

  /** The client it wraps, given by the test app once the provider runs. */
  wrap(inner: PaymentProvider): this {
    this.#inner = inner;
    return this;
  }

  saveCard(cardNumber: string, keyed?: CardKey) {
    return this.#provider().saveCard(cardNumber, keyed);
  }

  async charge(
    request: { amountCents: number; paymentMethodId: string; orderId: string },
    idempotencyKey: string | null,
  ): Promise<ChargeAnswer> {
    this.chargeCalls += 1;
    await this.beforeCharge?.();
    const answer = await this.#provider().charge(request, idempotencyKey);
    await this.afterCharge?.();
    return answer;
  }

  chargesOf(orderId: string, idempotencyKey?: string) {
    return this.#provider().chargesOf(orderId, idempotencyKey);
  }

  #provider(): PaymentProvider {
    if (!this.#inner) throw new Error("ControllableProvider: wrap() the real client first");
    return this.#inner;
  }
}
