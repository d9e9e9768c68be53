import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
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

async function providerDeliveringTo(url: string, retryWindowMs = 60_000, timeoutMs?: number) {
  const provider = await startTestProvider({
    webhooks: { url, secret: SECRET, retryWindowMs, retryBaseMs: 100, duplicateRate: 0, timeoutMs },
  });
  onTestFinished(() => provider.close());
  const headers = { authorization: `Bearer ${provider.apiKey}` };
  const pay = (paymentMethod: string, order?: string, idempotencyKey?: string) =>
    fetch(`${provider.url}/v1/payment_intents`, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/x-www-form-urlencoded",
        ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      },
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
  /** The provider's record of its tries for an order's events, as the merchant reads it. */
  const deliveries = async (order: string) => {
    const response = await fetch(`${provider.url}/v1/test_helpers/webhook_deliveries?order=${order}`, {
      headers,
    });
    return ((await response.json()) as { data: Delivery[] }).data;
  };
  return { provider, pay, setFaults, deliveries };
}

interface Delivery {
  id: string;
  event: string;
  type: string;
  try: number;
  at: string;
  status: number | null;
  error: string | null;
  duration_ms: number | null;
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

  test.for(["WebhookEvent", "Charge"])(
    "the event is written in the charge's own transaction: when the %s's write fails, neither is committed",
    async (table) => {
      const merchant = await endpoint([200]);
      const { provider, pay } = await providerDeliveringTo(merchant.url);
      await provider.db.$executeRawUnsafe(`ALTER TABLE "${table}" RENAME TO "${table}Away"`);
      expect((await pay("pm_card_visa", "ord_tx", "k_tx")).status).toBe(503);
      await provider.db.$executeRawUnsafe(`ALTER TABLE "${table}Away" RENAME TO "${table}"`);
      expect(await provider.db.charge.count()).toBe(0);
      expect(await provider.db.webhookEvent.count()).toBe(0);
      // Nothing was committed, so the key was released: the retry charges, once, with its event.
      expect((await pay("pm_card_visa", "ord_tx", "k_tx")).status).toBe(200);
      expect(await provider.db.charge.count()).toBe(1);
      expect(await provider.db.webhookEvent.count()).toBe(1);
    },
  );
});

describe("each try on the provider's record, and tries that got no answer retried", () => {
  /** An endpoint whose first request gets `first` (its socket reset, or no answer at all), then 200s. */
  async function endpointThatFirst(first: "resets" | "hangs") {
    const sockets: Socket[] = [];
    let requests = 0;
    const server = createServer((request, response) => {
      requests++;
      request.resume();
      if (requests > 1) return void response.end();
      if (first === "resets") request.socket.destroy();
      else sockets.push(request.socket);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  }

  /** A port nobody listens on until `listen()` is called: connections to it are refused meanwhile. */
  async function endpointNotYetListening() {
    const server = createServer((request, response) => {
      request.resume();
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    onTestFinished(
      () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
    );
    return {
      url: `http://127.0.0.1:${port}/hook`,
      listen: () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve)),
    };
  }

  test.each([
    ["the connection refused", "refused"],
    ["the connection reset", "reset"],
    ["no answer within the timeout", "timed out"],
  ] as const)("%s: recorded as no answer, then tried again until answered", async (_title, error) => {
    const refused = error === "refused" ? await endpointNotYetListening() : null;
    const url = refused?.url ?? (await endpointThatFirst(error === "reset" ? "resets" : "hangs"));
    const { pay, deliveries } = await providerDeliveringTo(url, 60_000, 300);
    expect((await pay("pm_card_visa", "ord_net")).status).toBe(200);

    await expect
      .poll(async () => (await deliveries("ord_net"))[0], { timeout: 10_000 })
      .toMatchObject({ try: 1, error });
    await refused?.listen();
    await expect
      .poll(async () => (await deliveries("ord_net")).at(-1), { timeout: 10_000 })
      .toMatchObject({ status: 200, error: null });
    const tries = await deliveries("ord_net");
    expect(tries[0]).toMatchObject({ try: 1, status: null, error, type: "payment_intent.succeeded" });
    expect(tries.at(-1)!.try).toBeGreaterThan(1);
    for (const [index, delivery] of tries.entries()) {
      expect(delivery).toMatchObject({ id: expect.stringMatching(/^whdel_/), event: tries[0]!.event });
      expect(delivery.try).toBe(index + 1);
      expect(delivery.duration_ms).toBeGreaterThanOrEqual(0);
      expect(Date.parse(delivery.at)).toBeGreaterThanOrEqual(Date.parse(tries[0]!.at));
    }
  });

  test("a try in flight is on record before its answer: no status and no error", async () => {
    const url = await endpointThatFirst("hangs");
    const { provider, pay, deliveries } = await providerDeliveringTo(url, 60_000, 4_000);
    expect((await pay("pm_card_visa", "ord_inflight")).status).toBe(200);
    await expect
      .poll(() => deliveries("ord_inflight"), { timeout: 10_000 })
      .toMatchObject([{ try: 1, status: null, error: null, duration_ms: null }]);
    // Only the merchant's key reads them, and only its orders.
    const other = await fetch(`${provider.url}/v1/test_helpers/webhook_deliveries?order=ord_inflight`, {
      headers: { authorization: "Bearer sk_test_another_merchant" },
    });
    expect(await other.json()).toEqual({ object: "list", data: [] });
    const publishable = await fetch(`${provider.url}/v1/test_helpers/webhook_deliveries?order=ord_inflight`, {
      headers: { authorization: `Bearer ${provider.apiKey.replace(/^sk_/, "pk_")}` },
    });
    expect(publishable.status).toBe(401);
  });
});

describe("the test lab's webhook faults", () => {
  test("webhookTwice: the order's event is delivered once more after its first 2xx, and never a third time", async () => {
    const merchant = await endpoint([200]);
    const { provider, pay, setFaults } = await providerDeliveringTo(merchant.url);
    await setFaults("ord_twice", { webhookTwice: true });
    expect((await pay("pm_card_visa", "ord_twice")).status).toBe(200);

    await expect.poll(() => merchant.received.length, { timeout: 10_000 }).toBe(2);
    // The second try's record, then its 2xx, are written a moment after the merchant has it: polled until then.
    await expect
      .poll(() => provider.db.webhookEvent.findFirstOrThrow(), { timeout: 10_000 })
      .toMatchObject({ attempts: 2, deliveredAt: expect.any(Date) });
    const event = await provider.db.webhookEvent.findFirstOrThrow();
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
    await expect
      .poll(() => provider.db.webhookEvent.findFirstOrThrow(), { timeout: 10_000 })
      .toMatchObject({ deliveredAt: expect.any(Date) });
  });
});
