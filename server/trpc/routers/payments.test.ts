import { describe, expect } from "vitest";
import { fingerprint } from "run-once";
import { PAYMENT_KEYSPACE } from "../../payments/keyspace";
import { newSessionId } from "../../session";
import { ControllableProvider } from "~/testing/controllable-provider";
import { gate } from "~/testing/gate";
import { chargeBody } from "~/testing/lab-orders";
import { appWithOrder, placedOrder } from "~/testing/placed-order";
import { FakeClock } from "~/testing/fake-clock";
import { test } from "~/testing/fixtures";
import type { TestApp } from "~/testing/test-app";

const DECLINED_CARD = "pm_card_chargeDeclined";

function chargeCount(app: TestApp, orderId: string) {
  return app.services.db.charge.count({ where: { orderId } });
}

describe("payments.charge", () => {
  test("charges once for two concurrent calls with one key, and both get the same result", async ({
    startApp,
  }) => {
    const { provider, app, session, order, charge } = await appWithOrder(startApp);

    const held = gate();
    provider.beforeCharge = () => held.opened;
    const first = app.caller(session).payments.charge(charge);
    const second = app.caller(session).payments.charge(charge);
    // Both are in flight before the first can finish.
    await new Promise((resolve) => setTimeout(resolve, 50));
    held.open();
    const [a, b] = await Promise.all([first, second]);

    expect(a).toEqual(b);
    expect(a).toMatchObject({ orderId: order.id, amountCents: order.totalCents, status: "captured" });
    expect(await chargeCount(app, order.id)).toBe(1);
    expect(provider.chargeCalls).toBe(1);
  });

  test("returns the stored result, byte for byte, to a sequential repeat", async ({ startApp }) => {
    const { provider, app, session, order, charge } = await appWithOrder(startApp);

    const first = await app.caller(session).payments.charge(charge);
    const again = await app.caller(session).payments.charge(charge);

    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(await chargeCount(app, order.id)).toBe(1);
    expect(provider.chargeCalls).toBe(1);
    await app.services.account.flush();
    const key = await app.services.db.idempotencyKey.findFirstOrThrow({ where: { key: order.paymentKey } });
    expect(key.replayCount).toBe(1);
  });

  test("charges once when two app instances on separate connections race with one key", async ({
    startApp,
  }) => {
    const providers = [new ControllableProvider(), new ControllableProvider()];
    const first = await startApp({ provider: providers[0] });
    const second = await startApp({
      provider: providers[1],
      database: first.database,
      paymentProvider: first.paymentProvider,
    });
    const { session, order, charge } = await placedOrder(first);

    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? first : second).caller(session).payments.charge(charge),
      ),
    );

    expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
    expect(await chargeCount(first, order.id)).toBe(1);
    expect(providers.reduce((sum, provider) => sum + provider.chargeCalls, 0)).toBe(1);
    expect(await first.paymentProvider.executions()).toBe(1);
  });

  test("commits the charge's record and the key's completion together: a fenced completion records nothing", async ({
    startApp,
  }) => {
    const { provider, app, session, order, charge } = await appWithOrder(startApp);

    // While the provider is being called, another owner takes the key (as
    // after a lease expiry) and answers it. The charge's record is then
    // written, but the completion is fenced off, so the record must roll back
    // with it; the caller gets the key's answer, the other owner's.
    const elsewhere = { code: "PAYMENT_REQUIRED", message: "declined elsewhere", reason: "CARD_DECLINED" };
    provider.beforeCharge = async () => {
      await app.services.db.idempotencyKey.updateMany({
        where: { key: order.paymentKey },
        data: {
          token: "someone-else",
          state: "COMPLETED",
          outcome: JSON.stringify({ ok: false, error: elsewhere }),
          completedAt: new Date(),
        },
      });
    };
    await expect(app.caller(session).payments.charge(charge)).rejects.toMatchObject(elsewhere);
    expect(provider.chargeCalls).toBe(1);
    expect(await chargeCount(app, order.id)).toBe(0);
    const stored = await app.services.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored.status).toBe("PENDING");
  });

  test("replays a decline to the request it answered, and opens a new attempt that another card can pay, once", async ({
    startApp,
  }) => {
    const { provider, app, session, order } = await appWithOrder(startApp);
    const declinedRequest = { ...chargeBody(order), paymentMethodId: DECLINED_CARD };

    const declined = { code: "PAYMENT_REQUIRED", reason: "CARD_DECLINED" };
    await expect(app.caller(session).payments.charge(declinedRequest)).rejects.toMatchObject(declined);
    await expect(app.caller(session).payments.charge(declinedRequest)).rejects.toMatchObject(declined);
    expect(provider.chargeCalls).toBe(1);
    expect(await chargeCount(app, order.id)).toBe(0);

    // The order is still payable, under a new key; the declined attempt keeps its key and outcome.
    const afterDecline = await app.caller(session).orders.get({ orderId: order.id });
    expect(afterDecline).toMatchObject({ status: "PENDING", paymentKeyState: "absent" });
    expect(afterDecline.paymentKey).not.toBe(order.paymentKey);
    expect(afterDecline.attempts.map((attempt) => [attempt.key, attempt.status])).toEqual([
      [order.paymentKey, "DECLINED"],
      [afterDecline.paymentKey, "OPEN"],
    ]);
    expect(afterDecline.attempts[0]).toMatchObject({
      cardLast4: "0002",
      declineReason: "Your card was declined.",
    });

    // Another card under the declined key is the same payment (the card is not fingerprinted): its decline again.
    await expect(
      app.caller(session).payments.charge({ ...declinedRequest, paymentMethodId: "pm_card_visa" }),
    ).rejects.toMatchObject(declined);
    // The new attempt's key, twice at once: one charge.
    const retry = chargeBody(order, afterDecline.paymentKey);
    const [a, b] = await Promise.all([
      app.caller(session).payments.charge(retry),
      app.caller(session).payments.charge(retry),
    ]);
    expect(b).toEqual(a);
    expect(await chargeCount(app, order.id)).toBe(1);
    const paid = await app.caller(session).orders.get({ orderId: order.id });
    expect(paid.status).toBe("PAID");
    expect(paid.attempts.map((attempt) => attempt.status)).toEqual(["DECLINED", "SUCCEEDED"]);
    // And the declined request still replays its decline.
    await expect(app.caller(session).payments.charge(declinedRequest)).rejects.toMatchObject(declined);
  });
});

/**
 * A refusal is decided before anything is written, so nothing of it is
 * stored: the key stays free, and the same key with a corrected request runs.
 * Each case fails if the refusal were stored as the key's outcome.
 */
describe("payments.charge refusals leave no key behind", () => {
  const keyRows = (app: TestApp, key: string) => app.services.db.idempotencyKey.count({ where: { key } });

  test("an amount that is not the order's total: 400, and the correct amount then pays with the same key", async ({
    startApp,
  }) => {
    const app = await startApp();
    const { session, order, charge } = await placedOrder(app);

    await expect(
      app.caller(session).payments.charge({ ...charge, amountCents: order.totalCents - 1 }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", reason: "AMOUNT_MISMATCH" });
    expect(await keyRows(app, order.paymentKey)).toBe(0);

    await expect(app.caller(session).payments.charge(charge)).resolves.toMatchObject({ status: "captured" });
    expect(await chargeCount(app, order.id)).toBe(1);
  });

  test("a key that is not the order's: 400, and no row for the made-up key", async ({ startApp }) => {
    const app = await startApp();
    const { session, order } = await placedOrder(app);

    await expect(
      app.caller(session).payments.charge(chargeBody(order, "made-per-try-1")),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", reason: "PAYMENT_KEY_MISMATCH" });
    expect(await keyRows(app, "made-per-try-1")).toBe(0);
    expect(await chargeCount(app, order.id)).toBe(0);
  });

  test("an order that does not exist (or is another session's): 404, nothing stored", async ({
    startApp,
  }) => {
    const app = await startApp();
    const { session: owner, order, charge } = await placedOrder(app);
    const stranger = app.caller(newSessionId());

    await expect(stranger.orders.get({ orderId: order.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(stranger.payments.charge(charge)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await keyRows(app, order.paymentKey)).toBe(0);
    expect(await chargeCount(app, order.id)).toBe(0);
    // The owner's key was never touched by the stranger's try.
    await expect(app.caller(owner).payments.charge(charge)).resolves.toMatchObject({
      status: "captured",
    });
  });

  test("an order that is no longer payable: 412 once its key has expired, and nothing stored", async ({
    startApp,
  }) => {
    const clock = new FakeClock();
    const app = await startApp({ clock: clock.now, settings: { ttlMs: 60_000 } });
    const { session, order, charge } = await placedOrder(app);
    await app.caller(session).payments.charge(charge);

    clock.advance(60_001);
    await expect(app.caller(session).payments.charge(charge)).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      reason: "ORDER_NOT_PAYABLE",
    });
    expect(await keyRows(app, order.paymentKey)).toBe(0);
    expect(await chargeCount(app, order.id)).toBe(1);
  });
});

describe("what the key table keeps", () => {
  test("a request's fingerprint is keyed by the server's secret: the stored one cannot test guesses of the request", async ({
    startApp,
  }) => {
    const app = await startApp();
    const { session, order } = await placedOrder(app);
    await app.caller(session).payments.charge(chargeBody(order));

    const stored = await app.services.db.idempotencyKey.findFirstOrThrow({
      where: { key: order.paymentKey },
    });
    const request = { orderId: order.id, amountCents: order.totalCents };
    // Guessing the order and amount and hashing them, as someone reading the table would, finds nothing...
    expect(stored.fingerprint).not.toBe(fingerprint(PAYMENT_KEYSPACE, request));
    // ...without the server's key, which is what it takes.
    expect(stored.fingerprint).toBe(
      fingerprint(PAYMENT_KEYSPACE, request, await app.services.fingerprintSecret()),
    );
  });
});
