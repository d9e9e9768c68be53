import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, onTestFinished } from "vitest";
import { newSessionId } from "../session";
import { ProviderUnavailableError } from "../payment-provider/payment-provider";
import { ControllableProvider } from "~/testing/controllable-provider";
import { FakeClock } from "~/testing/fake-clock";
import { test } from "~/testing/fixtures";
import type { TestApp } from "~/testing/test-app";
import { startTestProvider } from "~/testing/test-provider";
import { reconcile } from "./reconcile";

/** The provider's key retention, standing in for Stripe's 24 h, and the shop's cutoff safely inside it. */
const PROVIDER_TTL_MS = 1_500;
const CUTOFF_MS = 500;
const LEASE_MS = 60_000;

/** A shop whose provider forgets keys after PROVIDER_TTL_MS; `redriveCutoffMs` as given (the mechanism under test). */
async function lateApp(startApp: (opts?: object) => Promise<TestApp>, redriveCutoffMs = CUTOFF_MS) {
  const paymentProvider = await startTestProvider({ settings: { ttlMs: PROVIDER_TTL_MS } });
  onTestFinished(() => paymentProvider.close());
  const provider = new ControllableProvider();
  const clock = new FakeClock();
  const app = await startApp({
    provider,
    paymentProvider,
    clock: clock.now,
    redriveCutoffMs,
    settings: { leaseMs: LEASE_MS },
  });
  return { app, provider, clock };
}

/** An order whose payment failed after its recovery point: `fail` runs once the provider answered, or before. */
async function strandedPayment(app: TestApp, provider: ControllableProvider, when: "after" | "before") {
  const session = newSessionId();
  const order = await app.caller(session).orders.place({
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  });
  const fail = async () => {
    throw new ProviderUnavailableError("network");
  };
  if (when === "after") provider.afterCharge = fail;
  else provider.beforeCharge = fail;
  const request = {
    orderId: order.id,
    amountCents: order.totalCents,
    idempotencyKey: order.paymentKey,
    paymentMethodId: "pm_card_visa",
  };
  const error = await app
    .caller(session)
    .payments.charge(request)
    .catch((caught: unknown) => caught);
  provider.afterCharge = provider.beforeCharge = undefined;
  return { session, order, request, error };
}

function providerCharges(app: TestApp, orderId: string) {
  return app.paymentProvider.db.charge.findMany({ where: { orderRef: orderId } });
}

describe("a payment stranded past the provider's key retention", { timeout: 60_000 }, () => {
  test("the completer looks the charge up instead of charging again: one charge, recorded", async ({
    startApp,
  }) => {
    const { app, provider, clock } = await lateApp(startApp);
    const { order } = await strandedPayment(app, provider, "after");
    await sleep(PROVIDER_TTL_MS + 300); // the provider has forgotten the key: a charge under it would run again
    clock.advance(LEASE_MS + 1);

    expect(await app.services.completer.tick()).toBe(1);
    const atProvider = await providerCharges(app, order.id);
    expect(atProvider).toHaveLength(1);
    const recorded = await app.services.db.charge.findMany({ where: { orderId: order.id } });
    expect(recorded.map((charge) => charge.id)).toEqual(atProvider.map((charge) => charge.id));
    const [reconciliation] = await reconcile(app.services, [order.id]);
    expect(reconciliation?.problems).toEqual([]);
  });

  test("a customer's late retry gets the charge the key made, not a second one", async ({ startApp }) => {
    const { app, provider } = await lateApp(startApp);
    const { session, order, request } = await strandedPayment(app, provider, "after");
    await sleep(PROVIDER_TTL_MS + 300);

    const [first] = await providerCharges(app, order.id);
    await expect(app.caller(session).payments.charge(request)).resolves.toMatchObject({
      chargeId: first!.id,
    });
    expect(await providerCharges(app, order.id)).toHaveLength(1);
  });

  test("with no charge under the key: needs review, in the order, the ledger and the metrics; a retry charges nothing", async ({
    startApp,
  }) => {
    const { app, provider, clock } = await lateApp(startApp);
    const { session, order, request } = await strandedPayment(app, provider, "before");
    await sleep(CUTOFF_MS + 100);
    clock.advance(LEASE_MS + 1);

    expect(await app.services.completer.tick()).toBe(1);
    const shown = await app.caller(session).orders.get({ orderId: order.id });
    expect(shown).toMatchObject({ status: "PENDING", attempts: [{ status: "NEEDS_REVIEW" }] });
    const [ledgerOrder] = await app.caller(session).ledger.summary();
    expect(ledgerOrder?.attempts).toMatchObject([{ status: "NEEDS_REVIEW" }]);
    expect(await app.services.metrics.registry.metrics()).toContain(
      'payments_needs_review_total{reason="no_charge_past_cutoff"} 1',
    );

    const callsBefore = provider.chargeCalls;
    await expect(app.caller(session).payments.charge(request)).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: expect.stringContaining("do not pay again"),
    });
    expect(provider.chargeCalls).toBe(callsBefore);
    expect(await providerCharges(app, order.id)).toHaveLength(0);
  });
});
