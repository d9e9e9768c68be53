import type {
  ChargeAnswer,
  PaymentProvider,
  PaymentRequest,
} from "../server/payment-provider/payment-provider";

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

  async charge(request: PaymentRequest, idempotencyKey: string): Promise<ChargeAnswer> {
    this.chargeCalls += 1;
    await this.beforeCharge?.();
    const answer = await this.#provider().charge(request, idempotencyKey);
    await this.afterCharge?.();
    return answer;
  }

  chargesOf(orderId: string, paymentKey?: string) {
    return this.#provider().chargesOf(orderId, paymentKey);
  }

  chargeOfIntent(paymentIntentId: string) {
    return this.#provider().chargeOfIntent(paymentIntentId);
  }

  cardOf(paymentMethodId: string) {
    return this.#provider().cardOf(paymentMethodId);
  }

  webhookTriesOf(orderId: string) {
    return this.#provider().webhookTriesOf(orderId);
  }

  /** The next charge is made at the provider, then its answer is lost, as if the shop died between the hops. */
  strandNextCharge(): void {
    this.afterCharge = async () => {
      this.afterCharge = undefined;
      throw new Error("the shop died between the hops");
    };
  }

  #provider(): PaymentProvider {
    if (!this.#inner) throw new Error("ControllableProvider: wrap() the real client first");
    return this.#inner;
  }
}
