import { describe, expect } from "vitest";
import { newSessionId } from "../../session";
import { test } from "~/testing/fixtures";

describe("orders.place", () => {
  test("places one order for a double submit of one form", async ({ startApp }) => {
    const app = await startApp();
    const session = newSessionId();
    const form = { submissionKey: "form-1", items: [{ sku: "notebook", quantity: 3 }] };

    const [a, b] = await Promise.all([
      app.caller(session).orders.place(form),
      app.caller(session).orders.place(form),
    ]);
    const c = await app.caller(session).orders.place(form);

    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a).toMatchObject({ totalCents: 3 * 1200, status: "PENDING" });
    expect(a.paymentKey).toMatch(/^pay_/);
    expect(await app.services.db.order.count({ where: { sessionId: session } })).toBe(1);
  });

  test("persists the payment key on the order row, unique per order", async ({ startApp }) => {
    const app = await startApp();
    const session = newSessionId();
    const first = await app.caller(session).orders.place({
      submissionKey: "form-1",
      items: [{ sku: "notebook", quantity: 1 }],
    });
    const second = await app.caller(session).orders.place({
      submissionKey: "form-2",
      items: [{ sku: "notebook", quantity: 1 }],
    });

    expect(second.paymentKey).not.toBe(first.paymentKey);
    const row = await app.services.db.order.findUniqueOrThrow({ where: { id: first.id } });
    expect(row.paymentKey).toBe(first.paymentKey);
    expect((await app.caller(session).orders.get({ orderId: first.id })).paymentKey).toBe(first.paymentKey);
  });

  test("merges repeated lines and prices them from the catalogue", async ({ startApp }) => {
    const app = await startApp();
    const order = await app.caller().orders.place({
      submissionKey: "form-1",
      items: [
        { sku: "notebook", quantity: 1 },
        { sku: "notebook", quantity: 2 },
        { sku: "backpack", quantity: 1 },
      ],
    });
    expect(order.totalCents).toBe(3 * 1200 + 6500);
    expect(order.items).toHaveLength(2);
  });

  test("rejects an unknown product, writes no order and stores nothing: the form's key then places the corrected cart", async ({
    startApp,
  }) => {
    const app = await startApp();
    const session = newSessionId();
    await expect(
      app.caller(session).orders.place({ submissionKey: "form-1", items: [{ sku: "unicorn", quantity: 1 }] }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", reason: "UNKNOWN_PRODUCT" });
    expect(await app.services.db.order.count()).toBe(0);
    expect(await app.services.db.idempotencyKey.count()).toBe(0);

    const placed = await app
      .caller(session)
      .orders.place({ submissionKey: "form-1", items: [{ sku: "notebook", quantity: 1 }] });
    expect(placed.totalCents).toBe(1200);
  });

  test("opens the order's first payment attempt under its payment key", async ({ startApp }) => {
    const app = await startApp();
    const session = newSessionId();
    const order = await app
      .caller(session)
      .orders.place({ submissionKey: "form-1", items: [{ sku: "notebook", quantity: 1 }] });
    const shown = await app.caller(session).orders.get({ orderId: order.id });
    expect(shown.attempts).toMatchObject([{ key: order.paymentKey, status: "OPEN", settledAt: null }]);
  });
});
