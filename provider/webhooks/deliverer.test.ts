import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { describe, expect, onTestFinished, test } from "vitest";
import { startTestProvider } from "~/testing/test-provider";

const SECRET = "whsec_deliverer_test_secret_01";

/** A merchant's endpoint that answers with the statuses given in turn (the last one thereafter), keeping what it got and when. */
async function endpoint(statuses: number[]) {
  const received: { body: string; signature: string; arrivedAt: number }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const signature = String(request.headers["stripe-signature"]);
      received.push({ body, signature, arrivedAt: Date.now() });
      response.statusCode = statuses[Math.min(received.length, statuses.length) - 1]!;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

async function providerDeliveringTo(url: string, retryWindowMs = 60_000) {
  const provider = await startTestProvider({
    webhooks: { url, secret: SECRET, retryWindowMs, retryBaseMs: 100, duplicateRate: 0 },
  });
  onTestFinished(() => provider.close());
  const headers = { authorization: `Bearer ${provider.apiKey}` };
  const pay = (paymentMethod: string, order?: string) =>
    fetch(`${provider.url}/v1/payment_intents`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        amount: "1200",
        currency: "usd",
        payment_method: paymentMethod,
        confirm: "true",
        ...(order ? { "metadata[order]": order } : {}),
      }),
    });
  /** Sets some of the lab's faults for one order. */
  const setFaults = async (order: string, faults: { webhookTwice?: boolean; holdReplyMs?: number }) => {
    const response = await fetch(`${provider.url}/v1/test/faults/${order}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(faults),
    });
    expect(response.status).toBe(200);
  };
  return { provider, pay, setFaults };
}

describe("webhook delivery, at least once", () => {
  test("retried until answered 2xx, each try signed as Stripe signs, the same bytes every time", async () => {
    const merchant = await endpoint([500, 503, 200]);
    const { provider, pay } = await providerDeliveringTo(merchant.url);
    expect((await pay("pm_card_visa")).status).toBe(200);

    // The third try's 2xx is written a moment after the merchant has it: polled until then.
    await expect
      .poll(() => provider.db.webhookEvent.findFirstOrThrow(), { timeout: 10_000 })
      .toMatchObject({ type: "payment_intent.succeeded", attempts: 3, deliveredAt: expect.any(Date) });
    const event = await provider.db.webhookEvent.findFirstOrThrow();
    expect(merchant.received).toHaveLength(3);
    for (const { body, signature } of merchant.received) {
      expect(body).toBe(event.payload);
      expect(Stripe.webhooks.constructEvent(body, signature, SECRET)).toMatchObject({ id: event.id });
    }
  });

  test("a decline sends payment_intent.payment_failed; an endpoint that never answers 2xx is given up past the window", async () => {
    const merchant = await endpoint([500]);
    const { provider, pay } = await providerDeliveringTo(merchant.url, 400);
    expect((await pay("pm_card_chargeDeclined")).status).toBe(402);

    await expect
      .poll(() => provider.db.webhookEvent.findFirst({ select: { gaveUpAt: true } }), { timeout: 10_000 })
      .toMatchObject({ gaveUpAt: expect.any(Date) });
    const tries = merchant.received.length;
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(merchant.received[0]!.body)).toMatchObject({ type: "payment_intent.payment_failed" });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(merchant.received).toHaveLength(tries);
  });

  test("an event is written only with what it tells: a refused request writes none", async () => {
    const merchant = await endpoint([200]);
    const { provider, pay } = await providerDeliveringTo(merchant.url);
    expect((await pay("pm_does_not_exist")).status).toBe(400);
    expect(await provider.db.webhookEvent.count()).toBe(0);
  });
});

describe("the test lab's webhook faults", () => {
  test("webhookTwice: the order's event is delivered once more after its first 2xx, and never a third time", async () => {
    const merchant = await endpoint([200]);
    const { provider, pay, setFaults } = await providerDeliveringTo(merchant.url);
    await setFaults("ord_twice", { webhookTwice: true });
    expect((await pay("pm_card_visa", "ord_twice")).status).toBe(200);

    await expect.poll(() => merchant.received.length, { timeout: 10_000 }).toBe(2);
    const event = await provider.db.webhookEvent.findFirstOrThrow();
    expect(event).toMatchObject({ attempts: 2, deliveredAt: expect.any(Date) });
    expect(merchant.received.map(({ body }) => body)).toEqual([event.payload, event.payload]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(merchant.received).toHaveLength(2);

    // Another order's event, without the fault, is delivered once.
    expect((await pay("pm_card_visa", "ord_once")).status).toBe(200);
    await expect.poll(() => merchant.received.length, { timeout: 10_000 }).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(merchant.received).toHaveLength(3);
  });

  test("holdReplyMs: the charge's reply waits after its commit, and its event reaches the merchant first", async () => {
    const merchant = await endpoint([200]);
    const { provider, pay, setFaults } = await providerDeliveringTo(merchant.url);
    const holdReplyMs = 1_500;
    await setFaults("ord_first", { holdReplyMs });

    const sentAt = Date.now();
    const reply = pay("pm_card_visa", "ord_first").then(async (response) => ({
      status: response.status,
      intent: (await response.json()) as { id: string },
      repliedAt: Date.now(),
    }));
    await expect.poll(() => merchant.received.length, { timeout: 10_000 }).toBe(1);
    const { status, intent, repliedAt } = await reply;

    expect(status).toBe(200);
    expect(repliedAt - sentAt).toBeGreaterThanOrEqual(holdReplyMs);
    expect(merchant.received[0]!.arrivedAt).toBeLessThan(repliedAt);
    const delivered = JSON.parse(merchant.received[0]!.body) as { data: { object: { id: string } } };
    expect(delivered.data.object.id).toBe(intent.id);
    expect(await provider.db.webhookEvent.findFirstOrThrow()).toMatchObject({
      deliveredAt: expect.any(Date),
    });
  });
});
