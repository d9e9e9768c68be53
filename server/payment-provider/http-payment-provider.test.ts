import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { startTestProvider } from "~/testing/test-provider";
import type { TestProvider } from "~/testing/test-provider";
import { HttpPaymentProvider } from "./http-payment-provider";
import { ProviderUnavailableError } from "./payment-provider";
import type { CallRecorder, ProviderCall, ProviderReply } from "./payment-provider";

/**
 * The shop's provider client, Stripe's official one under the shop's retry
 * policy and keys, against the provider over HTTP, on each database engine.
 */
let provider: TestProvider;
let client: HttpPaymentProvider;
/** Every keyed call the client told its run of, with its reply. */
let calls: Array<ProviderCall & { reply?: ProviderReply }>;
const run: CallRecorder = {
  called(call) {
    const told: (typeof calls)[number] = { ...call };
    calls.push(told);
    return Promise.resolve((reply) => void (told.reply = reply));
  },
};
/** A payment of an order, sent by the run above. */
const payment = (orderId: string, amountCents: number, paymentMethodId = "pm_card_visa") => ({
  amountCents,
  paymentMethodId,
  orderId,
  paymentKey: `pay_${orderId}`,
  run,
});
const requestId = expect.stringMatching(/^req_/);

beforeEach(async () => {
  provider = await startTestProvider();
  calls = [];
  client = new HttpPaymentProvider({ url: provider.url, apiKey: provider.apiKey });
});
afterEach(() => provider.close());

async function setFaults(order: string, faults: Partial<Record<string, number | boolean>>) {
  const response = await fetch(`${provider.url}/v1/test/faults/${order}`, {
    method: "POST",
    headers: { authorization: `Bearer ${provider.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(faults),
  });
  expect(response.status).toBe(200);
}

describe("paying through Stripe's client", () => {
  test("a PaymentIntent, and its replay under the same key: one charge, made by the first call's request", async () => {
    const request = payment("ord_a", 1200);
    const first = await client.charge(request, "pay_a/charge");
    const replay = await client.charge(request, "pay_a/charge");

    expect(first).toEqual(replay);
    expect(first).toMatchObject({
      charged: { amountCents: 1200, cardLast4: "4242", orderId: "ord_a", requestId },
    });
    // The replay names the request that made the charge (Original-Request), not its own.
    const [made, replayed] = calls.map((call) => call.reply!.requestId);
    expect("charged" in first && first.charged.requestId).toBe(made);
    expect(replayed).not.toBe(made);
    expect(await provider.executions()).toBe(1);
    expect(await client.chargesOf("ord_a")).toEqual([
      "charged" in first ? { ...first.charged, requestId: null } : null,
    ]);
    expect(await client.chargesOf("ord_a", "pay_ord_a")).toHaveLength(1);
    expect(await client.chargesOf("ord_a", "pay_other")).toEqual([]);
  });

  test("a decline is an answer, final for its key: replayed, never charged", async () => {
    const request = payment("ord_d", 900, "pm_card_chargeDeclined");
    const answer = await client.charge(request, "pay_d/charge");

    expect(answer).toEqual({ declined: { reason: "Your card was declined.", cardLast4: "0002" } });
    expect(await client.charge(request, "pay_d/charge")).toEqual(answer);
    expect(await provider.executions()).toBe(1);
    expect(calls.map((call) => call.reply)).toEqual([
      { status: 402, decision: "executed", requestId },
      { status: 402, decision: "replayed", requestId },
    ]);
    expect(await client.chargesOf("ord_d")).toEqual([]);
  });

  test("a key reused with other parameters is refused at once, not retried as an unknown outcome", async () => {
    const request = payment("ord_r", 500);
    await client.charge(request, "pay_r/charge");
    const reused = client.charge({ ...request, amountCents: 600 }, "pay_r/charge");

    await expect(reused).rejects.toThrow(/refused the request with 400 StripeIdempotencyError/);
    await expect(reused).rejects.not.toBeInstanceOf(ProviderUnavailableError);
    expect(await provider.executions()).toBe(1);
  });

  test("a lost reply: the shop's retry sends the same key and gets the one charge back", async () => {
    await setFaults("ord_l", { dropReplies: 1 });
    const answer = await client.charge(payment("ord_l", 700), "pay_l/charge");

    const charges = await client.chargesOf("ord_l");
    expect(charges).toHaveLength(1);
    expect(answer).toEqual({ charged: { ...charges[0], requestId } });
    expect(await provider.executions()).toBe(1);
    // What the provider lane draws: a call whose reply broke off, then the retry's replay.
    expect(calls).toEqual([
      {
        orderId: "ord_l",
        path: "POST /v1/payment_intents",
        key: "pay_l/charge",
        paymentKey: "pay_ord_l",
        try: 1,
        reply: { status: null, decision: null, requestId: null },
      },
      {
        orderId: "ord_l",
        path: "POST /v1/payment_intents",
        key: "pay_l/charge",
        paymentKey: "pay_ord_l",
        try: 2,
        reply: { status: 200, decision: "replayed", requestId },
      },
    ]);
    // The charge was made by the first call, whose reply never came: the replay names another request.
    expect("charged" in answer && answer.charged.requestId).not.toBe(calls[1]!.reply!.requestId);
  });

  test("a provider that stays unavailable: ProviderUnavailableError once the policy gives up", async () => {
    await setFaults("ord_u", { unavailable: 5 });
    const quick = new HttpPaymentProvider({
      url: provider.url,
      apiKey: provider.apiKey,
      retry: { maxTries: 2, baseDelayMs: 10, maxDelayMs: 10, tryTimeoutMs: 2_000, deadlineMs: 5_000 },
    });
    await expect(quick.charge(payment("ord_u", 300), "pay_u/charge")).rejects.toThrow(
      ProviderUnavailableError,
    );
  });
});
