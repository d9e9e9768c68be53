import Stripe from "stripe";
import { afterEach, describe, expect, test } from "vitest";
import { startTestProvider } from "~/testing/test-provider";
import type { TestProvider } from "~/testing/test-provider";

/** The provider as any Stripe integration drives it: the `stripe` package alone, no code of the shop's. */
let provider: TestProvider;
afterEach(() => provider.close());

describe("Stripe's own client against the provider", () => {
  test("PaymentIntents, a replay, a decline with its PaymentIntent, a refused key reuse, and the lists", async () => {
    provider = await startTestProvider();
    const stripe = provider.stripe();
    const params = {
      amount: 2400,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
      metadata: { order: "ord_stripe" },
    };

    const intent = await stripe.paymentIntents.create(params, { idempotencyKey: "k_stripe" });
    expect(intent).toMatchObject({ object: "payment_intent", status: "succeeded", amount_received: 2400 });
    const replay = await stripe.paymentIntents.create(params, { idempotencyKey: "k_stripe" });
    expect(replay.id).toBe(intent.id);
    expect(replay.lastResponse.headers["idempotent-replayed"]).toBe("true");

    const reused = stripe.paymentIntents.create({ ...params, amount: 2500 }, { idempotencyKey: "k_stripe" });
    await expect(reused).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);

    const declined = await stripe.paymentIntents
      .create({ ...params, payment_method: "pm_card_chargeDeclined" }, { idempotencyKey: "k_declined" })
      .catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    const cardError = declined as Stripe.errors.StripeCardError;
    expect(cardError).toMatchObject({
      code: "card_declined",
      decline_code: "generic_decline",
      statusCode: 402,
    });
    expect(cardError.payment_intent).toMatchObject({ status: "requires_payment_method" });

    const charges = await stripe.charges.list({ limit: 10 });
    expect(charges.data.map((charge) => charge.status).sort()).toEqual(["failed", "succeeded"]);
    const found = await stripe.paymentIntents.search({ query: "metadata['order']:'ord_stripe'" });
    expect(found.data).toHaveLength(2);
    expect((await stripe.paymentIntents.retrieve(intent.id)).latest_charge).toBe(intent.latest_charge);
    const method = await stripe.paymentMethods.retrieve("pm_card_visa");
    expect(method.card).toMatchObject({ last4: "4242", brand: "visa" });
  });

  test("a wrong secret key is refused: 401, the client's authentication error", async () => {
    provider = await startTestProvider();
    const stripe = provider.stripe("not_a_key");
    await expect(stripe.charges.list()).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });
});
