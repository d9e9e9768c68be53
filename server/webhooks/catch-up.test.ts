import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { serve } from "@hono/node-server";
import type Stripe from "stripe";
import { describe, expect, onTestFinished, vi } from "vitest";
import { logger } from "service-kit/logger";
import { ControllableProvider } from "~/testing/controllable-provider";
import { test } from "~/testing/fixtures";
import { placedOrder } from "~/testing/placed-order";
import type { TestApp, createTestApp } from "~/testing/test-app";
import { startTestProvider } from "~/testing/test-provider";
import type { TestProvider } from "~/testing/test-provider";
import { CatchUp } from "./catch-up";
import { WEBHOOK_KEYSPACE } from "./handle-event";
import { serveWebhook } from "./serve-webhook";

const SECRET = "whsec_catch_up_endpoint_secret_0";

type StartApp = (opts?: Parameters<typeof createTestApp>[0]) => Promise<TestApp>;

/** The shop's webhook endpoint: down (every delivery refused), up, or handling each delivery but losing its answer. */
async function endpoint(app: () => TestApp | undefined) {
  const state: { mode: "down" | "up" | "answer lost" } = { mode: "down" };
  const lost = (answer: Response) => new Response("lost", { status: answer.ok ? 502 : answer.status });
  const server = serve({
    fetch: async (request) =>
      state.mode === "down"
        ? new Response("down", { status: 503 })
        : state.mode === "up"
          ? serveWebhook(app()!.services, request)
          : lost(await serveWebhook(app()!.services, request)),
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise((resolve) => server.once("listening", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/stripe` };
}

/** An app whose provider delivers events to an endpoint that starts down, and whose payments the test can strand. */
async function shop(startApp: StartApp) {
  const started: { app?: TestApp } = {};
  const webhook = await endpoint(() => started.app);
  const paymentProvider = await startTestProvider({
    webhooks: { url: webhook.url, secret: SECRET, retryWindowMs: 60_000, retryBaseMs: 200, duplicateRate: 0 },
  });
  onTestFinished(() => paymentProvider.close());
  const provider = new ControllableProvider();
  started.app = await startApp({ paymentProvider, provider, webhookSecret: SECRET });
  return { app: started.app, provider, webhook, paymentProvider };
}

/** A paid order whose shop died between the hops: charged at the provider, not recorded by the shop. */
async function strandedPayment(app: TestApp, provider: ControllableProvider) {
  const { session, order, charge } = await placedOrder(app);
  provider.strandNextCharge();
  await expect(app.caller(session).payments.charge(charge)).rejects.toThrow();
  return { session, order };
}

/** The provider's payment_intent.succeeded event for an order. */
async function eventOf(paymentProvider: TestProvider, orderId: string): Promise<Stripe.Event> {
  const events = await paymentProvider.stripe().events.list({ type: "payment_intent.succeeded", limit: 100 });
  const event = events.data.find((e) => (e.data.object as Stripe.PaymentIntent).metadata.order === orderId);
  if (!event) throw new Error(`no event for order ${orderId}`);
  return event;
}

/** The runs of a road under an event's key, as the account holds them. */
async function runsOf(app: TestApp, road: string, event: string) {
  await app.services.account.flush();
  return app.services.db.requestRecord.findMany({
    where: { sentBy: road, key: event },
    select: { decision: true, body: true },
  });
}

/** A pass once the events' second is over: the catch-up lists whole seconds only. */
async function catchUpPass(app: TestApp) {
  await sleep(1_000);
  return app.services.catchUp!.tick();
}

const recordedBy = async (app: TestApp, orderId: string) => {
  const charges = await app.services.db.charge.findMany({ where: { orderId }, select: { recordedBy: true } });
  const runs = await app.services.db.requestRecord.findMany({
    where: { id: { in: charges.map((c) => c.recordedBy!) } },
  });
  return runs.map((run) => run.sentBy);
};

describe("the catch-up road", () => {
  test("records a payment whose webhook never arrived", async ({ startApp }) => {
    const { app, provider, paymentProvider } = await shop(startApp);
    const { order } = await strandedPayment(app, provider);
    await catchUpPass(app);
    expect(await recordedBy(app, order.id)).toEqual(["catch-up"]);
    // Still undelivered at the provider, but its second is behind the cursor now: not listed again.
    await catchUpPass(app);
    expect(await runsOf(app, "catch-up", (await eventOf(paymentProvider, order.id)).id)).toHaveLength(1);
  });

  test("an event younger than one interval is left to its webhook's first delivery", async ({ startApp }) => {
    const { app, provider } = await shop(startApp);
    const { order } = await strandedPayment(app, provider);
    await sleep(1_000);
    app.services.catchUp!.start(60_000);
    expect(await app.services.catchUp!.tick()).toBe(0);
    expect(await recordedBy(app, order.id)).toEqual([]);
  });

  test("an event by the webhook (its answer lost), then by the catch-up: handled once, the catch-up replays", async ({
    startApp,
  }) => {
    const { app, provider, webhook, paymentProvider } = await shop(startApp);
    webhook.state.mode = "answer lost";
    const { order } = await strandedPayment(app, provider);
    await expect.poll(() => recordedBy(app, order.id), { timeout: 10_000 }).toEqual(["webhook"]);
    const event = await eventOf(paymentProvider, order.id);
    await catchUpPass(app);
    expect(await runsOf(app, "catch-up", event.id)).toMatchObject([{ decision: "replayed" }]);
    expect(await recordedBy(app, order.id)).toEqual(["webhook"]);
    expect(await paymentProvider.executions()).toBe(1);
  });

  test("an event by the catch-up, then redelivered by the webhook: handled once, the webhook replays", async ({
    startApp,
  }) => {
    const { app, provider, webhook, paymentProvider } = await shop(startApp);
    const { order } = await strandedPayment(app, provider);
    const event = await eventOf(paymentProvider, order.id);
    await catchUpPass(app);
    webhook.state.mode = "up";
    await expect
      .poll(() => runsOf(app, "webhook", event.id), { timeout: 10_000 })
      .toMatchObject([{ decision: "replayed" }]);
    expect(await recordedBy(app, order.id)).toEqual(["catch-up"]);
  });

  test("the cursor is durable, and is not advanced past a failed event", async ({ startApp }) => {
    const { app, provider, paymentProvider } = await shop(startApp);
    // Each payment in a second of its own: the cursor counts seconds, as the provider's `created` does.
    const pay = async (strand = false) => {
      await sleep(1_100);
      const { session, order, charge } = await placedOrder(app);
      if (strand) provider.strandNextCharge();
      await app
        .caller(session)
        .payments.charge(charge)
        .catch(() => null);
      return eventOf(paymentProvider, order.id);
    };
    const older = await pay();
    await pay();
    await catchUpPass(app);
    const failing = await pay(true);
    const later = await pay();
    // The provider cannot tell the failing event's charge: its handling fails, and the later event waits behind it.
    const down = vi.spyOn(provider, "chargeOfIntent").mockRejectedValue(new Error("the provider is down"));
    await catchUpPass(app);
    down.mockRestore();
    expect(await app.services.db.catchUpCursor.findFirst()).toMatchObject({ createdAt: failing.created - 1 });
    expect(await runsOf(app, "catch-up", later.id)).toEqual([]);

    // Restarted (another process on the same database): on from the stored cursor, the older event is not listed again.
    const restarted = await startApp({ database: app.database, paymentProvider, webhookSecret: SECRET });
    await catchUpPass(restarted);
    const failingOrder = (failing.data.object as Stripe.PaymentIntent).metadata.order!;
    expect(await recordedBy(app, failingOrder)).toEqual(["catch-up"]);
    expect(await runsOf(app, "catch-up", later.id)).toHaveLength(1);
    expect(await runsOf(app, "catch-up", older.id)).toHaveLength(1);
  });

  test("a customer.created event caught up changes nothing, and the cursor passes it", async ({
    startApp,
  }) => {
    const app = await startApp({ webhookSecret: SECRET });
    const { order } = await placedOrder(app);
    const before = await app.services.db.order.findUniqueOrThrow({ where: { id: order.id } });
    const event = {
      id: "evt_customer_1",
      object: "event",
      type: "customer.created",
      created: Math.floor(Date.now() / 1000) - 5,
    };
    const catchUp = new CatchUp({
      services: app.services,
      eventRunOnce: app.services.webhooks!.runOnce,
      undeliveredEvents: async function* () {
        yield { ...event, data: { object: { object: "customer", metadata: {} } } } as unknown as Stripe.Event;
      },
      lookBackMs: 60_000,
      logger,
    });
    expect(await catchUp.tick()).toBe(1);
    expect(await app.services.db.idempotencyKey.count({ where: { path: WEBHOOK_KEYSPACE } })).toBe(0);
    expect(await app.services.db.charge.count()).toBe(0);
    expect(await app.services.db.order.findUniqueOrThrow({ where: { id: order.id } })).toEqual(before);
    expect(await app.services.db.paymentAttempt.findMany({ where: { status: { not: "OPEN" } } })).toEqual([]);
    expect(await runsOf(app, "catch-up", event.id)).toMatchObject([
      { body: expect.stringContaining('"ignored"') },
    ]);
    expect((await app.services.db.catchUpCursor.findFirst())!.createdAt).toBeGreaterThanOrEqual(
      event.created,
    );
  });
});
