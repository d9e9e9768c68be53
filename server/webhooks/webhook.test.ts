import type { AddressInfo } from "node:net";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { serve } from "@hono/node-server";
import Stripe from "stripe";
import { describe, expect, onTestFinished } from "vitest";
import { ControllableProvider } from "~/testing/controllable-provider";
import { test } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import { placedOrder } from "~/testing/placed-order";
import type { createTestApp } from "~/testing/test-app";
import { startTestProvider } from "~/testing/test-provider";
import type { TestApp } from "~/testing/test-app";
import { PaymentRecord } from "~/app/_components/payment-record";
import { webhookRetentionProblem } from "../env";
import { naiveCharge } from "../lab/naive-charge";
import { setSwitches } from "../lab/switches";
import { WEBHOOK_KEYSPACE } from "./handle-event";
import { serveWebhook } from "./serve-webhook";
import { WEBHOOK_BODY_LIMIT_BYTES } from "./verified-event";

const SECRET = "whsec_test_endpoint_secret_0123";

/** A real HTTP endpoint in front of the app's webhook, on a free port, for the provider to deliver to. */
async function webhookEndpoint(app: () => TestApp | undefined) {
  const server = serve({
    fetch: (request) => serveWebhook(app()!.services, request),
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise((resolve) => server.once("listening", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/stripe`;
}

/** An app whose provider delivers its events to it, signed with SECRET, retried quickly. */
async function appWithWebhooks(
  startApp: (opts?: Parameters<typeof createTestApp>[0]) => Promise<TestApp>,
  opts: { provider?: ControllableProvider; duplicateRate?: number; lab?: boolean } = {},
) {
  const started: { app?: TestApp } = {};
  const url = await webhookEndpoint(() => started.app);
  const paymentProvider = await startTestProvider({
    webhooks: {
      url,
      secret: SECRET,
      retryWindowMs: 60_000,
      retryBaseMs: 200,
      duplicateRate: opts.duplicateRate ?? 0,
    },
  });
  onTestFinished(() => paymentProvider.close());
  started.app = await startApp({
    paymentProvider,
    provider: opts.provider,
    webhookSecret: SECRET,
    lab: opts.lab,
  });
  return started.app;
}

function delivery(payload: string, headers: Record<string, string> = {}) {
  return new Request("http://shop/api/webhooks/stripe", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: payload,
  });
}

const signed = (payload: string, opts: { secret?: string; timestamp?: number } = {}) => ({
  "stripe-signature": Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: opts.secret ?? SECRET,
    timestamp: opts.timestamp,
  }),
});

const eventPayload = (type: string) =>
  JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
    object: "event",
    type,
    data: { object: {} },
  });

async function webhookKeys(app: TestApp) {
  return app.services.db.idempotencyKey.count({ where: { path: WEBHOOK_KEYSPACE } });
}

describe("the webhook refuses what is not the provider's, and records nothing", () => {
  test.for([
    ["no signature", () => delivery(eventPayload("payment_intent.succeeded")), 400, /no Stripe-Signature/],
    [
      "a forged signature (another secret)",
      () => {
        const payload = eventPayload("payment_intent.succeeded");
        return delivery(payload, signed(payload, { secret: "whsec_someone_else_entirely_00" }));
      },
      400,
      /No signatures found matching/,
    ],
    [
      "a timestamp outside the tolerance (a replay from 10 minutes ago)",
      () => {
        const payload = eventPayload("payment_intent.succeeded");
        return delivery(payload, signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 }));
      },
      400,
      /outside the tolerance zone/,
    ],
    ["a malformed body", () => delivery("{not json", signed("{not json")), 400, /refused/],
    [
      "a body over the limit",
      () => {
        const payload = `{"pad":"${"x".repeat(WEBHOOK_BODY_LIMIT_BYTES)}"}`;
        return delivery(payload, signed(payload));
      },
      413,
      /over 65536 bytes/,
    ],
  ] as const)("%s: %i", async ([, request, status, message], { startApp }) => {
    const app = await startApp({ webhookSecret: SECRET });
    const answer = await serveWebhook(app.services, request());
    expect(answer.status).toBe(status);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(message);
    expect(await webhookKeys(app)).toBe(0);
  });

  test("without a signing secret the endpoint is not there: 404", async ({ startApp }) => {
    const app = await startApp();
    const payload = eventPayload("payment_intent.succeeded");
    expect((await serveWebhook(app.services, delivery(payload, signed(payload)))).status).toBe(404);
  });
});

test("a verified event of a type the shop does not handle is answered 2xx, and changes nothing", async ({
  startApp,
}) => {
  const app = await startApp({ webhookSecret: SECRET });
  const { order } = await placedOrder(app);
  const before = await app.services.db.order.findUniqueOrThrow({ where: { id: order.id } });
  const payload = eventPayload("customer.created");
  const answer = await serveWebhook(app.services, delivery(payload, signed(payload)));
  expect(answer.status).toBe(200);
  expect(await answer.json()).toMatchObject({ received: true, outcome: "ignored" });
  // No key, no charge, no attempt settled: the order as it was.
  expect(await webhookKeys(app)).toBe(0);
  expect(await app.services.db.charge.count()).toBe(0);
  expect(await app.services.db.order.findUniqueOrThrow({ where: { id: order.id } })).toEqual(before);
  expect(await app.services.db.paymentAttempt.findMany({ where: { status: { not: "OPEN" } } })).toEqual([]);
});

describe("events, delivered at least once, record each payment once", () => {
  test("a delivery repeated gets the stored answer; the payment is recorded once", async ({ startApp }) => {
    const app = await appWithWebhooks(startApp, { duplicateRate: 1 });
    const { session, order } = await placedOrder(app);
    await app.caller(session).payments.charge(chargeBody(order));
    // The provider sends the event twice: both answered 2xx, the second from the event's stored answer.
    await expect
      .poll(
        () =>
          app.paymentProvider.db.webhookEvent.findFirst({ select: { attempts: true, deliveredAt: true } }),
        {
          timeout: 10_000,
        },
      )
      .toMatchObject({ attempts: 2, deliveredAt: expect.any(Date) });
    expect(await webhookKeys(app)).toBe(1);
    expect(await app.services.db.charge.count({ where: { orderId: order.id } })).toBe(1);
    // The order's account holds both deliveries: the first ran and recorded nothing, the second replayed its answer.
    // The first finds the payment recorded, or, when it comes before the shop's reply, waits on its key and shares it.
    await app.services.account.flush();
    const account = await app.caller(session).orders.serverAccount({ orderId: order.id });
    const [first, second] = account.webhookDeliveries;
    expect(first).toMatchObject({ decision: "executed", status: 200 });
    expect(["already recorded", "shared"]).toContain(first!.outcome);
    expect(second).toMatchObject({ decision: "replayed", status: 200, outcome: first!.outcome });
    expect(account.webhookDeliveries).toHaveLength(2);
    // The provider's own record of its tries, beside the shop's: the two, each answered 200.
    expect(account.webhookTries?.map((t) => [t.event, t.try, t.status])).toEqual([
      [first!.event, 1, 200],
      [first!.event, 2, 200],
    ]);
  });

  test("the shop dies after the provider charged: the webhook records the charge once, and the retry replays it", async ({
    startApp,
  }) => {
    const provider = new ControllableProvider();
    const app = await appWithWebhooks(startApp, { provider });
    const { session, order } = await placedOrder(app);
    provider.strandNextCharge();
    await expect(app.caller(session).payments.charge(chargeBody(order))).rejects.toMatchObject({
      message: expect.stringContaining("may have gone through"),
    });

    await expect
      .poll(() => app.services.db.charge.count({ where: { orderId: order.id } }), { timeout: 10_000 })
      .toBe(1);
    const [charge] = await app.services.db.charge.findMany({ where: { orderId: order.id } });
    await app.services.account.flush();
    const account = await app.caller(session).orders.serverAccount({ orderId: order.id });
    const maker = account.requests.find((attempt) => attempt.id === charge!.recordedBy);
    expect(maker).toMatchObject({ sentBy: "webhook", decision: "executed" });

    // The order page's record says who recorded it: the router passes the road, and its badge shows.
    const shown = await app.caller(session).orders.get({ orderId: order.id });
    expect(shown.attempts).toMatchObject([{ status: "SUCCEEDED", settledBy: "webhook" }]);
    expect(renderToStaticMarkup(createElement(PaymentRecord, { order: shown }))).toContain(
      "recorded from the provider&#x27;s webhook",
    );

    // The customer's retry and the completer find it recorded: still one charge, one at the provider.
    await expect(app.caller(session).payments.charge(chargeBody(order))).resolves.toMatchObject({
      chargeId: charge!.id,
    });
    await app.services.completer.tick();
    expect(await app.services.db.charge.count({ where: { orderId: order.id } })).toBe(1);
    expect(await app.paymentProvider.executions()).toBe(1);
  });
});

test("the lab's naive charges are told too: their events are delivered, drawn under the order, and record nothing", async ({
  startApp,
}) => {
  const app = await appWithWebhooks(startApp, { lab: true });
  const { session, order } = await placedOrder(app);
  const deps = { ...app.services, sessionId: session, http: null };
  const input = { orderId: order.id, amountCents: order.totalCents, paymentMethodId: "pm_card_visa" };
  await naiveCharge(deps, { ...input, attemptKey: "naive_1" });
  await expect
    .poll(async () => {
      await app.services.account.flush();
      return (await app.caller(session).orders.serverAccount({ orderId: order.id })).webhookDeliveries;
    })
    .toMatchObject([{ paymentKey: "naive_1", status: 200, outcome: "not a payment of this shop's" }]);
  expect(await app.services.db.paymentAttempt.findMany({ where: { orderId: order.id } })).toMatchObject([
    { status: "OPEN", settledBy: null },
  ]);
});

describe("one event, delivered many times, is handled once", () => {
  test("5 deliveries at once and 5 one after another: one record, every answer the same", async ({
    startApp,
  }) => {
    const provider = new ControllableProvider();
    const app = await appWithWebhooks(startApp, { provider });
    const { session, order } = await placedOrder(app);
    provider.strandNextCharge();
    await app
      .caller(session)
      .payments.charge(chargeBody(order))
      .catch(() => null);
    // The provider's own event, as it was sent, re-signed for each delivery.
    const event = await app.paymentProvider.db.webhookEvent.findFirstOrThrow();
    const deliver = () => serveWebhook(app.services, delivery(event.payload, signed(event.payload)));
    const concurrent = await Promise.all(Array.from({ length: 5 }, deliver));
    const sequential = [];
    for (let i = 0; i < 5; i++) sequential.push(await deliver());
    const answers = await Promise.all([...concurrent, ...sequential].map((answer) => answer.json()));
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toMatchObject({ received: true, event: event.id });
    expect([...concurrent, ...sequential].map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(await app.services.db.charge.count({ where: { orderId: order.id } })).toBe(1);
    expect(await webhookKeys(app)).toBe(1);
    // The account: every delivery (the provider's own too), one of them ran and recorded, as the charge's maker says.
    await app.services.account.flush();
    const account = await app.caller(session).orders.serverAccount({ orderId: order.id });
    const [charge] = await app.services.db.charge.findMany({ where: { orderId: order.id } });
    const maker = account.requests.find((attempt) => attempt.id === charge!.recordedBy);
    const ran = account.webhookDeliveries.filter((d) => d.decision === "executed");
    expect(account.webhookDeliveries.length).toBeGreaterThanOrEqual(10);
    expect(ran).toEqual([expect.objectContaining({ outcome: "recorded", id: maker!.body.delivery })]);
  });
});

describe("the key outlives the provider's retries and the catch-up's look-back", () => {
  const day = 24 * 60 * 60 * 1000;
  test.for([
    [day, 3 * day, day, /^WEBHOOK_KEY_TTL_MS \(86400000 ms\) is shorter than WEBHOOK_RETRY_WINDOW_MS/],
    [
      3 * day,
      3 * day,
      5 * day,
      /^WEBHOOK_KEY_TTL_MS \(259200000 ms\) is shorter than WEBHOOK_CATCH_UP_LOOKBACK_MS/,
    ],
    [7 * day, 3 * day, 7 * day, null],
  ] as const)(
    "TTL %i, retry window %i, look-back %i: refused with one sentence, or kept",
    ([ttl, window, lookBack, problem]) => {
      const config = {
        WEBHOOK_KEY_TTL_MS: ttl,
        WEBHOOK_RETRY_WINDOW_MS: window,
        WEBHOOK_CATCH_UP_LOOKBACK_MS: lookBack,
      };
      if (problem) expect(webhookRetentionProblem(config)).toMatch(problem);
      else expect(webhookRetentionProblem(config)).toBeNull();
    },
  );
});

test("the shop down for an order (the lab): its roads fail, the catch-up records the payment, and the next try replays it", async ({
  startApp,
}) => {
  const app = await appWithWebhooks(startApp, { lab: true });
  // A minute's interval, as by default: its own passes leave a fresh event to the webhook.
  app.services.catchUp!.start(60_000);
  const { session, order } = await placedOrder(app);
  await setSwitches(app.services.db, order.id, { shopDown: true });
  await expect(app.caller(session).payments.charge(chargeBody(order))).rejects.toMatchObject({
    code: "SERVICE_UNAVAILABLE",
  });
  const tries = async () => (await app.services.provider.webhookTriesOf(order.id)) ?? [];
  await expect.poll(async () => (await tries()).map((t) => t.status)).toContain(503);
  expect(await app.services.catchUp!.passNow()).toBe(1);
  expect(await app.services.db.charge.count({ where: { orderId: order.id } })).toBe(1);
  await setSwitches(app.services.db, order.id, { shopDown: false });
  await expect.poll(async () => (await tries()).at(-1)?.status, { timeout: 10_000 }).toBe(200);
  await app.services.account.flush();
  const { webhookDeliveries } = await app.caller(session).orders.serverAccount({ orderId: order.id });
  expect(webhookDeliveries.map((d) => [d.road, d.decision, d.outcome])).toEqual([
    ["catch-up", "executed", "recorded"],
    ["webhook", "replayed", "recorded"],
  ]);
});
