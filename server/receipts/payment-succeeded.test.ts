import Stripe from "stripe";
import { expect } from "vitest";
import { serveWebhook } from "../webhooks/serve-webhook";
import type { TestApp } from "~/testing/test-app";
import { newSessionId } from "../session";
import { ControllableProvider } from "~/testing/controllable-provider";
import { chargeBody } from "~/testing/lab-orders";
import { test } from "~/testing/fixtures";

test("the transaction that records a charge writes its payment.succeeded event, once however often it is retried", async ({
  startApp,
}) => {
  const app = await startApp({ provider: new ControllableProvider() });
  const session = newSessionId();
  const order = await app.caller(session).orders.place({
    submissionKey: `sub-${crypto.randomUUID()}`,
    items: [{ sku: "notebook", quantity: 1 }],
  });
  const charged = await app.caller(session).payments.charge(chargeBody(order));
  await app.caller(session).payments.charge(chargeBody(order));

  const events = await app.services.db.outboxEvent.findMany({ where: { orderId: order.id } });
  expect(events.map((event) => [event.type, JSON.parse(event.payload)])).toEqual([
    [
      "payment.succeeded",
      {
        eventId: events[0]!.id,
        orderId: order.id,
        chargeId: charged.chargeId,
        amountCents: order.totalCents,
      },
    ],
  ]);
});

/** Takes the outbox's table away, so that any write of an event fails, until the returned function puts it back. */
async function outboxAway(app: TestApp) {
  await app.services.db.$executeRawUnsafe('ALTER TABLE "OutboxEvent" RENAME TO "OutboxEventAway"');
  return () => app.services.db.$executeRawUnsafe('ALTER TABLE "OutboxEventAway" RENAME TO "OutboxEvent"');
}

const SECRET = "whsec_outbox_test_secret_0123";

test.for(["the customer's retry", "the completer", "the provider's webhook"] as const)(
  "%s records a charge only with its payment.succeeded event, in one transaction",
  async (road, { startApp }) => {
    const provider = new ControllableProvider();
    const app = await startApp({ provider, webhookSecret: SECRET });
    const session = newSessionId();
    const order = await app.caller(session).orders.place({
      submissionKey: `sub-${crypto.randomUUID()}`,
      items: [{ sku: "notebook", quantity: 1 }],
    });
    // The provider charges; the shop's first try dies before recording it.
    provider.strandNextCharge();
    await app
      .caller(session)
      .payments.charge(chargeBody(order))
      .catch(() => null);
    const [intent] = await app.paymentProvider.db.charge.findMany({ where: { orderRef: order.id } });
    const event = JSON.stringify({
      id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
      object: "event",
      type: "payment_intent.succeeded",
      data: {
        object: {
          id: intent!.paymentIntent,
          object: "payment_intent",
          metadata: JSON.parse(intent!.metadata),
        },
      },
    });
    const recordBy = {
      "the customer's retry": () =>
        app
          .caller(session)
          .payments.charge(chargeBody(order))
          .catch(() => null),
      "the completer": async () => {
        await app.services.db.paymentAttempt.update({
          where: { key: order.paymentKey },
          data: { nextTryAt: new Date(0) },
        });
        await app.services.completer.tick();
      },
      "the provider's webhook": () =>
        serveWebhook(
          app.services,
          new Request("http://shop/api/webhooks/stripe", {
            method: "POST",
            headers: {
              "stripe-signature": Stripe.webhooks.generateTestHeaderString({
                payload: event,
                secret: SECRET,
              }),
            },
            body: event,
          }),
        ),
    }[road];

    const putBack = await outboxAway(app);
    await recordBy();
    await putBack();
    // The event could not be written, so neither was the charge.
    expect(await app.services.db.charge.count({ where: { orderId: order.id } })).toBe(0);

    await recordBy();
    const charges = await app.services.db.charge.findMany({ where: { orderId: order.id } });
    const events = await app.services.db.outboxEvent.findMany({ where: { orderId: order.id } });
    expect(charges).toHaveLength(1);
    expect(events.map((row) => JSON.parse(row.payload).chargeId)).toEqual([charges[0]!.id]);
  },
);
