import { afterEach, describe, expect, it } from "vitest";
import { newSessionId } from "../../session";
import { ControllableLedger, gate } from "../../testing/controllable-ledger";
import { createTestApp } from "../../testing/test-app";
import type { TestApp } from "../../testing/test-app";

const DECLINED_CARD = "4000000000000002";

let apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.map((app) => app.close()));
  apps = [];
});

async function start(opts: Parameters<typeof createTestApp>[0] = {}) {
  const app = await createTestApp(opts);
  apps.push(app);
  return app;
}

async function placeOrder(app: TestApp, sessionId: string) {
  return app.caller(sessionId).orders.place({
    submissionKey: `sub-${crypto.randomUUID()}`,
    items: [
      { sku: "notebook", quantity: 2 },
      { sku: "ceramic-mug", quantity: 1 },
    ],
  });
}

function chargeCount(app: TestApp, orderId: string) {
  return app.services.db.charge.count({ where: { orderId } });
}

describe("payments.charge", () => {
  it("charges once for two concurrent calls with one key, and both get the same result", async () => {
    const ledger = new ControllableLedger();
    const app = await start({ ledger });
    const session = newSessionId();
    const order = await placeOrder(app, session);
    const charge = { orderId: order.id, amountCents: order.totalCents, idempotencyKey: order.paymentKey };

    const held = gate();
    ledger.beforeAuthorize = () => held.opened;
    const first = app.caller(session).payments.charge(charge);
    const second = app.caller(session).payments.charge(charge);
    // Both are in flight before the first can finish.
    await new Promise((resolve) => setTimeout(resolve, 50));
    held.open();
    const [a, b] = await Promise.all([first, second]);

    expect(a).toEqual(b);
    expect(a).toMatchObject({ orderId: order.id, amountCents: order.totalCents, status: "captured" });
    expect(await chargeCount(app, order.id)).toBe(1);
    expect(ledger.authorizeCalls).toBe(1);
  });

  it("returns the stored result, byte for byte, to a sequential repeat", async () => {
    const ledger = new ControllableLedger();
    const app = await start({ ledger });
    const session = newSessionId();
    const order = await placeOrder(app, session);
    const charge = { orderId: order.id, amountCents: order.totalCents, idempotencyKey: order.paymentKey };

    const first = await app.caller(session).payments.charge(charge);
    const again = await app.caller(session).payments.charge(charge);

    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(await chargeCount(app, order.id)).toBe(1);
    expect(ledger.authorizeCalls).toBe(1);
    await app.services.idempotency.flushReplayCounts();
    const key = await app.services.db.idempotencyKey.findFirstOrThrow({ where: { key: order.paymentKey } });
    expect(key.replayCount).toBe(1);
  });

  it("charges once when two app instances on separate connections race with one key", async () => {
    const ledgers = [new ControllableLedger(), new ControllableLedger()];
    const first = await start({ ledger: ledgers[0] });
    const second = await start({ ledger: ledgers[1], database: first.database });
    const session = newSessionId();
    const order = await placeOrder(first, session);
    const charge = { orderId: order.id, amountCents: order.totalCents, idempotencyKey: order.paymentKey };

    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? first : second).caller(session).payments.charge(charge),
      ),
    );

    expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
    expect(await chargeCount(first, order.id)).toBe(1);
    expect(ledgers.reduce((sum, ledger) => sum + ledger.authorizeCalls, 0)).toBe(1);
  });

  it("commits the ledger entry and the key's completion together: a failed completion leaves no charge", async () => {
    const ledger = new ControllableLedger();
    const app = await start({ ledger });
    const session = newSessionId();
    const order = await placeOrder(app, session);
    const charge = { orderId: order.id, amountCents: order.totalCents, idempotencyKey: order.paymentKey };

    // While the charge is being authorized, another owner takes the key (as
    // after a lease expiry). The ledger row is then written, but the
    // completion is fenced off, so the ledger write must roll back with it.
    ledger.beforeAuthorize = async () => {
      await app.services.db.idempotencyKey.updateMany({
        where: { key: order.paymentKey },
        data: { token: "someone-else" },
      });
    };
    await expect(app.caller(session).payments.charge(charge)).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(ledger.recordCalls).toBe(1);
    expect(await chargeCount(app, order.id)).toBe(0);
    const stored = await app.services.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored.status).toBe("PENDING");
  });

  it("refuses a key that is not the order's payment key", async () => {
    const app = await start();
    const session = newSessionId();
    const order = await placeOrder(app, session);

    await expect(
      app.caller(session).payments.charge({
        orderId: order.id,
        amountCents: order.totalCents,
        idempotencyKey: "made-per-attempt-1",
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", reason: "PAYMENT_KEY_MISMATCH" });
    expect(await chargeCount(app, order.id)).toBe(0);
  });

  it("refuses an amount that is not the order's total", async () => {
    const app = await start();
    const session = newSessionId();
    const order = await placeOrder(app, session);

    await expect(
      app.caller(session).payments.charge({
        orderId: order.id,
        amountCents: order.totalCents + 1,
        idempotencyKey: order.paymentKey,
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", reason: "AMOUNT_MISMATCH" });
  });

  it("hides another session's order, and does not pay it", async () => {
    const app = await start();
    const owner = newSessionId();
    const order = await placeOrder(app, owner);
    const stranger = app.caller(newSessionId());

    await expect(stranger.orders.get({ orderId: order.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      stranger.payments.charge({
        orderId: order.id,
        amountCents: order.totalCents,
        idempotencyKey: order.paymentKey,
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await chargeCount(app, order.id)).toBe(0);
  });

  it("replays a decline as a decline, without asking the ledger again, and records no charge", async () => {
    const ledger = new ControllableLedger();
    const app = await start({ ledger });
    const session = newSessionId();
    const order = await placeOrder(app, session);
    const charge = {
      orderId: order.id,
      amountCents: order.totalCents,
      idempotencyKey: order.paymentKey,
      cardNumber: DECLINED_CARD,
    };

    const declined = { code: "PAYMENT_REQUIRED", reason: "CARD_DECLINED" };
    await expect(app.caller(session).payments.charge(charge)).rejects.toMatchObject(declined);
    await expect(app.caller(session).payments.charge(charge)).rejects.toMatchObject(declined);

    expect(ledger.authorizeCalls).toBe(1);
    expect(await chargeCount(app, order.id)).toBe(0);
    const stored = await app.caller(session).orders.get({ orderId: order.id });
    expect(stored.status).toBe("DECLINED");
    expect(stored.paymentKeyState).toBe("completed");
  });
});
