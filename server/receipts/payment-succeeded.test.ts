import { expect } from "vitest";
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
