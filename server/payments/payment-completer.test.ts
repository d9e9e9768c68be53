import { describe, expect } from "vitest";
import { newSessionId } from "../session";
import { ControllableProvider } from "~/testing/controllable-provider";
import { test } from "~/testing/fixtures";
import { FakeClock } from "~/testing/fake-clock";
import type { TestApp } from "~/testing/test-app";
import { reconcile } from "./reconcile";

const LEASE_MS = 60_000;

async function strandedPayment(app: TestApp, provider: ControllableProvider) {
  const session = newSessionId();
  const order = await app.caller(session).orders.place({
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  });
  // The provider charges; then the shop fails before recording it, and the customer never comes back.
  provider.afterCharge = async () => {
    throw new Error("the shop died between the hops");
  };
  await expect(
    app.caller(session).payments.charge({
      orderId: order.id,
      amountCents: order.totalCents,
      idempotencyKey: order.paymentKey,
      paymentMethodId: "pm_card_visa",
    }),
  ).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  provider.afterCharge = undefined;
  expect(await app.paymentProvider.db.charge.count({ where: { orderRef: order.id } })).toBe(1);
  expect(await app.services.db.charge.count({ where: { orderId: order.id } })).toBe(0);
  return { session, order };
}

describe("the background completer", { timeout: 60_000 }, () => {
  test("finishes a payment left between the provider's charge and the record: the provider's one charge, recorded", async ({
    startApp,
  }) => {
    const clock = new FakeClock();
    const provider = new ControllableProvider();
    const app = await startApp({ provider, clock: clock.now, settings: { leaseMs: LEASE_MS } });
    const { session, order } = await strandedPayment(app, provider);

    // Not before the payment is older than a lease: its client may still be retrying.
    expect(await app.services.completer.tick()).toBe(0);
    clock.advance(LEASE_MS + 1);
    expect(await app.services.completer.tick()).toBe(1);

    const recorded = await app.services.db.charge.findMany({ where: { orderId: order.id } });
    const atProvider = await app.paymentProvider.db.charge.findMany({ where: { orderRef: order.id } });
    expect(recorded.map((charge) => charge.id)).toEqual(atProvider.map((charge) => charge.id));
    expect(await app.paymentProvider.executions()).toBe(1);
    const shown = await app.caller(session).orders.get({ orderId: order.id });
    expect(shown).toMatchObject({ status: "PAID", paymentKeyState: "completed" });
    expect(shown.attempts).toMatchObject([{ status: "SUCCEEDED", settledBy: "completer" }]);
    const [reconciliation] = await reconcile(app.services, [order.id]);
    expect(reconciliation?.problems).toEqual([]);
    // The order's account shows the completer's run beside the client's request, each as what it is.
    const { requests: attempts } = await app.caller(session).orders.serverAccount({ orderId: order.id });
    expect(attempts.map((a) => [a.sentBy, a.decision])).toEqual([
      ["client", "released"],
      ["completer", "executed"],
    ]);
    // Its charge names the completer's run that recorded it, not the request that died.
    expect(shown.charges.map((charge) => charge.recordedBy)).toEqual([attempts[1]!.id]);

    // The customer's retry, whenever it comes, gets that charge.
    await expect(
      app.caller(session).payments.charge({
        orderId: order.id,
        amountCents: order.totalCents,
        idempotencyKey: order.paymentKey,
        paymentMethodId: "pm_card_visa",
      }),
    ).resolves.toMatchObject({ chargeId: recorded[0]!.id });
    expect(await app.services.completer.tick()).toBe(0);
  });

  test("is not blocked by attempts that never finish: 20 of them ahead of a real stranded charge, recorded within two ticks; then they go to review", async ({
    startApp,
  }) => {
    const clock = new FakeClock();
    const provider = new ControllableProvider();
    const app = await startApp({
      provider,
      clock: clock.now,
      settings: { leaseMs: LEASE_MS },
      completerMaxFailures: 2,
    });
    const { order } = await strandedPayment(app, provider);
    // Ahead of it, 20 attempts whose card the provider no longer knows: every try fails.
    const session = newSessionId();
    const longAgo = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 20; i++) {
      const poisoned = await app.caller(session).orders.place({
        submissionKey: crypto.randomUUID(),
        items: [{ sku: "notebook", quantity: 1 }],
      });
      await app.services.db.paymentAttempt.update({
        where: { key: poisoned.paymentKey },
        data: {
          paymentMethodId: "pm_forgotten",
          cardLast4: "4242",
          requestFingerprint: "fp",
          providerCalledAt: longAgo,
          nextTryAt: longAgo,
        },
      });
    }
    clock.advance(LEASE_MS + 1);

    await app.services.completer.tick();
    await app.services.completer.tick();
    expect(await app.services.db.charge.count({ where: { orderId: order.id } })).toBe(1);

    // Each failing attempt backs off on its own, and after the bound it needs review.
    const open = () =>
      app.services.db.paymentAttempt.count({ where: { status: "OPEN", paymentMethodId: "pm_forgotten" } });
    expect(await open()).toBe(20);
    clock.advance(2 * LEASE_MS);
    await app.services.completer.tick();
    expect(await open()).toBe(0);
    expect(await app.services.metrics.registry.metrics()).toContain(
      'payments_needs_review_total{reason="completer_gave_up"} 20',
    );
  });
});
