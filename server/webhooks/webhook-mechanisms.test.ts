import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { describe, expect, onTestFinished } from "vitest";
import { ControllableProvider } from "~/testing/controllable-provider";
import { test } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import { placedOrder } from "~/testing/placed-order";
import type { TestApp } from "~/testing/test-app";
import { startTestProvider } from "~/testing/test-provider";
import { statusOfUnfinishedBody } from "~/testing/unfinished-body";
import { ProviderUnavailableError } from "../payment-provider/payment-provider";
import { WEBHOOK_KEYSPACE } from "./handle-event";
import { serveWebhook } from "./serve-webhook";
import { WEBHOOK_BODY_LIMIT_BYTES } from "./verified-event";

const SECRET = "whsec_test_mechanisms_secret_01";

/** The app's webhook on a real HTTP port, for the provider to deliver to. */
async function webhookEndpoint(app: () => TestApp | undefined) {
  const server = serve({
    fetch: (request) => serveWebhook(app()!.services, request),
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise((resolve) => server.once("listening", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

describe("a delivery whose handling fails is answered 503, so the provider delivers it again", () => {
  test("the provider unreachable while the event is handled: 503, nothing recorded; the redelivery records the charge", async ({
    startApp,
  }) => {
    const provider = new ControllableProvider();
    let unreachable = true;
    const chargeOfIntent = provider.chargeOfIntent.bind(provider);
    provider.chargeOfIntent = async (id) => {
      if (unreachable) throw new ProviderUnavailableError("network");
      return chargeOfIntent(id);
    };
    const started: { app?: TestApp } = {};
    const port = await webhookEndpoint(() => started.app);
    const webhooks = { url: `http://127.0.0.1:${port}/`, secret: SECRET, retryWindowMs: 60_000 };
    const paymentProvider = await startTestProvider({
      webhooks: { ...webhooks, retryBaseMs: 200, duplicateRate: 0 },
    });
    onTestFinished(() => paymentProvider.close());
    const app = (started.app = await startApp({ paymentProvider, provider, webhookSecret: SECRET }));
    const { session, order } = await placedOrder(app);
    // The shop dies after the provider charged: only the webhook can record it.
    provider.strandNextCharge();
    await expect(app.caller(session).payments.charge(chargeBody(order))).rejects.toThrow();

    const tries = () => paymentProvider.db.webhookDelivery.findMany({ orderBy: { try: "asc" } });
    await expect.poll(async () => (await tries()).map((t) => t.status), { timeout: 10_000 }).toContain(503);
    expect(await app.services.db.charge.count({ where: { orderId: order.id } })).toBe(0);
    expect(
      await app.services.db.idempotencyKey.count({ where: { path: WEBHOOK_KEYSPACE, state: "COMPLETED" } }),
    ).toBe(0);

    unreachable = false;
    await expect
      .poll(() => app.services.db.charge.count({ where: { orderId: order.id } }), { timeout: 10_000 })
      .toBe(1);
    await expect
      .poll(() => paymentProvider.db.webhookEvent.findFirst(), { timeout: 10_000 })
      .toMatchObject({ deliveredAt: expect.any(Date) });
    expect((await tries()).at(-1)).toMatchObject({ status: 200 });
  });
});

describe("a delivery announcing a body over the limit is refused before it is read", () => {
  test("Content-Length over the limit, the body never finished: 413 at once", async ({ startApp }) => {
    const app = await startApp({ webhookSecret: SECRET });
    const port = await webhookEndpoint(() => app);
    const url = `http://127.0.0.1:${port}/`;
    const headers = { "content-type": "application/json" };
    // A few bytes of the body, the rest never sent: only the header can refuse it.
    expect(await statusOfUnfinishedBody(url, headers, WEBHOOK_BODY_LIMIT_BYTES + 1, '{"id":"evt_')).toBe(413);
    expect(await app.services.db.idempotencyKey.count({ where: { path: WEBHOOK_KEYSPACE } })).toBe(0);
  });
});
