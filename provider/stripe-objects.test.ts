import { afterEach, describe, expect, test } from "vitest";
import fixtures from "~/testing/stripe/fixtures.json";
import { startTestProvider } from "~/testing/test-provider";
import type { TestProvider } from "~/testing/test-provider";

/** Stripe's own example objects (openapi/fixtures3.json, unchanged): every field the mock's objects must carry. */
let provider: TestProvider;
afterEach(() => provider.close());

async function post(path: string, body: Record<string, string>) {
  const response = await fetch(`${provider.url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${provider.apiKey}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function get(path: string) {
  const response = await fetch(`${provider.url}${path}`, {
    headers: { authorization: `Bearer ${provider.apiKey}` },
  });
  return (await response.json()) as Record<string, unknown>;
}

const keysOf = (object: unknown) => Object.keys(object as object).sort();

function intentBody(paymentMethod: string, order: string) {
  return {
    amount: "1200",
    currency: "usd",
    payment_method: paymentMethod,
    confirm: "true",
    "metadata[order]": order,
    "expand[]": "latest_charge",
  };
}

describe("the mock's objects have Stripe's fields", () => {
  test("PaymentMethod, PaymentIntent, Charge and their card details, field for field", async () => {
    provider = await startTestProvider();
    const method = await post("/v1/payment_methods", {
      type: "card",
      "card[number]": "4242424242424242",
      "card[exp_month]": "8",
      "card[exp_year]": "2030",
      "card[cvc]": "123",
    });
    expect(keysOf(method.json)).toEqual(keysOf(fixtures.payment_method));
    expect(keysOf(method.json.card)).toEqual(keysOf(fixtures.payment_method.card));

    const intent = await post("/v1/payment_intents", intentBody(method.json.id as string, "ord_shape"));
    expect(intent.status).toBe(200);
    expect(keysOf(intent.json)).toEqual(keysOf(fixtures.payment_intent));
    expect(intent.json).toMatchObject({
      object: "payment_intent",
      status: "succeeded",
      amount_received: 1200,
    });
    const charge = intent.json.latest_charge as { payment_method_details: { card: unknown } };
    expect(keysOf(charge)).toEqual(keysOf(fixtures.charge));
    expect(keysOf(charge.payment_method_details.card)).toEqual(
      keysOf(fixtures.charge.payment_method_details.card),
    );
  });

  test("a decline: 402 card_error with decline_code, charge and payment_intent; the intent asks for another method", async () => {
    provider = await startTestProvider();
    const declined = await post(
      "/v1/payment_intents",
      intentBody("pm_card_chargeDeclinedInsufficientFunds", "ord_d"),
    );
    expect(declined.status).toBe(402);
    const error = declined.json.error as Record<string, unknown> & {
      payment_intent: Record<string, unknown>;
    };
    expect(error).toMatchObject({
      type: "card_error",
      code: "card_declined",
      decline_code: "insufficient_funds",
      charge: expect.stringMatching(/^ch_/),
    });
    expect(keysOf(error.payment_intent)).toEqual(keysOf(fixtures.payment_intent));
    expect(error.payment_intent).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { decline_code: "insufficient_funds" },
    });
    // The failed charge is in the account's list, as Stripe lists it.
    const list = await get(`/v1/charges?payment_intent=${error.payment_intent.id as string}`);
    expect(list).toMatchObject({
      object: "list",
      data: [{ id: error.charge, status: "failed", paid: false }],
    });
  });

  test("search by metadata and retrieve: the intent a key made, and its charge", async () => {
    provider = await startTestProvider();
    const intent = await post("/v1/payment_intents", {
      ...intentBody("pm_card_visa", "ord_s"),
      "metadata[idempotency_key]": "pay_s/charge",
    });
    const query = encodeURIComponent(
      "metadata['order']:'ord_s' AND metadata['idempotency_key']:'pay_s/charge'",
    );
    const found = await get(`/v1/payment_intents/search?query=${query}`);
    expect(found).toMatchObject({ object: "search_result", data: [{ id: intent.json.id }] });
    const retrieved = await get(`/v1/payment_intents/${intent.json.id as string}`);
    expect(retrieved).toMatchObject({ id: intent.json.id, latest_charge: expect.stringMatching(/^ch_/) });
    expect(keysOf(await get(`/v1/charges/${retrieved.latest_charge as string}`))).toEqual(
      keysOf(fixtures.charge),
    );
  });
});
