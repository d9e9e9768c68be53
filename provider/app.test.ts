import { afterEach, describe, expect, test } from "vitest";
import { startTestProvider } from "~/testing/test-provider";
import type { TestProvider } from "~/testing/test-provider";
import { statusOfUnfinishedBody } from "~/testing/unfinished-body";
import { BODY_LIMIT_BYTES } from "./body";

/** The provider's HTTP edges, as any client (or attacker) can reach them: every refusal in Stripe's shape, never a 500. */
let provider: TestProvider;
afterEach(() => provider.close());

const FORM = "application/x-www-form-urlencoded";

function send(path: string, init: { body?: BodyInit; type?: string; key?: string; apiKey?: string } = {}) {
  return fetch(`${provider.url}${path}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${init.apiKey ?? provider.apiKey}`,
      ...(init.type ? { "content-type": init.type } : {}),
      ...(init.key ? { "idempotency-key": init.key } : {}),
    },
    body: init.body,
    ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

async function expectStripeError(response: Response, status: number, type: string, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const { error } = (await response.json()) as { error: { type: string; code: string; message: string } };
  expect(error).toMatchObject({ type, code });
  expect(error.message.length).toBeGreaterThan(0);
}

/** A card as Stripe.js sends it from the browser. */
const card = (number = "4242424242424242", expYear = "2034") =>
  new URLSearchParams({
    type: "card",
    "card[number]": number,
    "card[exp_month]": "12",
    "card[exp_year]": expYear,
    "card[cvc]": "123",
  });
const publishableKey = () => provider.apiKey.replace(/^sk_/, "pk_");

describe("bodies", () => {
  test.beforeEach(async () => {
    provider = await startTestProvider();
  });

  test.each([
    ["malformed JSON: 400 in Stripe's shape", '{"type":"card",', "application/json", 400, "body_invalid"],
    [
      "a content type Stripe's clients do not send: 415",
      "type=card",
      "text/plain",
      415,
      "content_type_invalid",
    ],
  ] as const)("%s", async (_title, body, type, status, code) => {
    await expectStripeError(
      await send("/v1/payment_methods", { body, type }),
      status,
      "invalid_request_error",
      code,
    );
  });

  test("a body over the limit: 413, by its Content-Length or while it streams in", async () => {
    const big = `type=card&pad=${"x".repeat(BODY_LIMIT_BYTES)}`;
    await expectStripeError(
      await send("/v1/payment_methods", { body: big, type: FORM }),
      413,
      "invalid_request_error",
      "request_too_large",
    );
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    await expectStripeError(
      await send("/v1/payment_methods", { body: chunks, type: FORM }),
      413,
      "invalid_request_error",
      "request_too_large",
    );
  });

  test("a Content-Length over the limit, its body never finished: 413 at once, before the body is read", async () => {
    const headers = { authorization: `Bearer ${provider.apiKey}`, "content-type": FORM };
    const url = `${provider.url}/v1/payment_methods`;
    expect(await statusOfUnfinishedBody(url, headers, BODY_LIMIT_BYTES + 1, "type=card&")).toBe(413);
  });

  test("a failure of the provider's own (its database): 503 with Retry-After, not 500", async () => {
    await provider.db.$executeRawUnsafe('DROP TABLE "PaymentMethod"');
    const response = await send("/v1/payment_methods", { body: card(), type: FORM });
    expect(response.headers.get("retry-after")).toBe("1");
    await expectStripeError(response, 503, "api_error", "temporarily_unavailable");
  });
});

describe("keys", () => {
  test.beforeEach(async () => {
    provider = await startTestProvider();
  });

  test("a secret key as Bearer or as HTTP Basic's user (curl -u sk_test_...:) names the same account", async () => {
    const created = await send("/v1/payment_methods", { body: card(), type: FORM });
    const { id } = (await created.json()) as { id: string };
    const basic = await fetch(`${provider.url}/v1/payment_methods/${id}`, {
      headers: { authorization: `Basic ${Buffer.from(`${provider.apiKey}:`).toString("base64")}` },
    });
    expect(basic.status).toBe(200);
    await expectStripeError(
      await send("/v1/payment_methods/pm_x", { apiKey: "nope" }),
      401,
      "invalid_request_error",
      "api_key_invalid",
    );
  });

  test("a publishable key creates PaymentMethods from any origin, and nothing else", async () => {
    const preflight = await fetch(`${provider.url}/v1/payment_methods`, {
      method: "OPTIONS",
      headers: {
        origin: "http://shop.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const created = await send("/v1/payment_methods", { body: card(), type: FORM, apiKey: publishableKey() });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    // The shop's secret key sees the browser's PaymentMethod: one account.
    expect((await send(`/v1/payment_methods/${id}`)).status).toBe(200);
    await expectStripeError(
      await send(`/v1/payment_methods/${id}`, { apiKey: publishableKey() }),
      401,
      "invalid_request_error",
      "secret_key_required",
    );
    const intent = new URLSearchParams({
      amount: "500",
      currency: "usd",
      payment_method: id,
      confirm: "true",
    });
    await expectStripeError(
      await send("/v1/payment_intents", { body: intent, type: FORM, apiKey: publishableKey() }),
      401,
      "invalid_request_error",
      "secret_key_required",
    );
  });

  test("a card number that fails its check digit, or an expired card: a card error naming the field", async () => {
    const wrong = await send("/v1/payment_methods", { body: card("4242424242424241"), type: FORM });
    await expectStripeError(wrong, 402, "card_error", "incorrect_number");
    const expired = await send("/v1/payment_methods", { body: card(undefined, "2020"), type: FORM });
    await expectStripeError(expired, 402, "card_error", "invalid_expiry_year");
    expect(await provider.db.paymentMethod.count()).toBe(0);
  });
});

describe("saving a card", () => {
  test.beforeEach(async () => {
    provider = await startTestProvider();
  });

  test("under an Idempotency-Key: the retry gets the same card; another card under it is refused", async () => {
    const first = await send("/v1/payment_methods", { body: card(), type: FORM, key: "pay_1/card" });
    const again = await send("/v1/payment_methods", { body: card(), type: FORM, key: "pay_1/card" });
    const { id } = (await first.json()) as { id: string };
    expect(((await again.json()) as { id: string }).id).toBe(id);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await provider.db.paymentMethod.count()).toBe(1);

    const other = await send("/v1/payment_methods", {
      body: card("5555555555554444"),
      type: FORM,
      key: "pay_1/card",
    });
    await expectStripeError(other, 400, "idempotency_error", "idempotency_key_reused");
  });
});

describe("the test lab's faults", () => {
  async function charge(apiKey: string, order: string) {
    const saved = await send("/v1/payment_methods", { body: card(), type: FORM, apiKey });
    const { id } = (await saved.json()) as { id: string };
    const body = new URLSearchParams({
      amount: "500",
      currency: "usd",
      payment_method: id,
      confirm: "true",
      "metadata[order]": order,
    });
    return send("/v1/payment_intents", { body, type: FORM, apiKey });
  }

  test("belong to the account that set them: another account's switches never touch this one's order", async () => {
    provider = await startTestProvider();
    const other = "sk_test_another_merchant";
    const faults = {
      dropReplies: 0,
      unavailable: 1,
      timeouts: 0,
      delayMs: 0,
      decline: true,
      webhookTwice: false,
      holdReplyMs: 0,
    };
    const set = await send("/v1/test/faults/ord_shared", {
      body: JSON.stringify(faults),
      type: "application/json",
      apiKey: other,
    });
    expect(set.status).toBe(200);

    const mine = await charge(provider.apiKey, "ord_shared");
    expect(mine.status).toBe(200);
    expect(await (await send("/v1/test/faults/ord_shared")).json()).toMatchObject({ unavailable: 0 });
    expect(await (await send("/v1/test/faults/ord_shared", { apiKey: other })).json()).toEqual(faults);
    // Only the faults given change: the others keep their value.
    const changed = await send("/v1/test/faults/ord_shared", {
      body: JSON.stringify({ holdReplyMs: 250 }),
      type: "application/json",
      apiKey: other,
    });
    expect(await changed.json()).toEqual({ ...faults, holdReplyMs: 250 });
    expect((await charge(other, "ord_shared")).status).toBe(503);
  });

  test("set at once for one order, each switch lands: an upsert per fault, never a 500", async () => {
    provider = await startTestProvider();
    const changes = [
      { unavailable: 2 },
      { decline: true },
      { delayMs: 10 },
      { holdReplyMs: 20 },
      { timeouts: 1 },
    ];
    const answers = await Promise.all(
      [...changes, ...changes].map((change) =>
        send("/v1/test/faults/ord_race", { body: JSON.stringify(change), type: "application/json" }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(await (await send("/v1/test/faults/ord_race")).json()).toMatchObject(
      Object.assign({}, ...changes),
    );
    await expectStripeError(
      await send("/v1/test/faults/ord_race", { body: JSON.stringify({ nope: 1 }), type: "application/json" }),
      400,
      "invalid_request_error",
      "parameter_invalid",
    );
  });

  test("are not read at all with the lab off: a charge succeeds without their table", async () => {
    provider = await startTestProvider({ lab: false });
    await provider.db.$executeRawUnsafe('DROP TABLE "LabFault"');
    expect((await charge(provider.apiKey, "ord_1")).status).toBe(200);
    await expectStripeError(
      await send("/v1/test/faults/ord_1"),
      404,
      "invalid_request_error",
      "resource_missing",
    );
  });
});

describe("metrics", () => {
  test("round trips count every statement and each transaction's BEGIN, which the statements leave out", async () => {
    provider = await startTestProvider({ lab: false });
    const counter = async (name: string) =>
      (await provider.running.metrics.registry.getSingleMetric(name)!.get()).values[0]!.value;
    const count = async () => ({
      statements: await counter("provider_db_queries_total"),
      roundTrips: await counter("provider_db_round_trips_total"),
    });
    const before = await count();
    const body = new URLSearchParams({
      amount: "500",
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: "true",
    });
    expect((await send("/v1/payment_intents", { body, type: FORM, key: "k_metrics" })).status).toBe(200);
    const after = await count();
    const statements = after.statements - before.statements;
    // The charge commits in a transaction: its BEGIN is one more round trip than its statements.
    expect(statements).toBeGreaterThan(0);
    expect(after.roundTrips - before.roundTrips).toBeGreaterThan(statements);
  });
});
