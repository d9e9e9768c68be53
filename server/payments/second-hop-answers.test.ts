import { describe, expect } from "vitest";
import { newSessionId } from "../session";
import { ProviderUnavailableError } from "../payment-provider/payment-provider";
import { ControllableProvider } from "~/testing/controllable-provider";
import { test } from "~/testing/fixtures";
import type { TestApp } from "~/testing/test-app";

const OTHER_CARD = "5555555555554444";

async function placedOrder(app: TestApp) {
  const session = newSessionId();
  const order = await app.caller(session).orders.place({
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  });
  const request = { orderId: order.id, amountCents: order.totalCents, idempotencyKey: order.paymentKey };
  return { session, order, request };
}

describe("what the shop answers once the provider may have been called", () => {
  test("a provider that does not answer: the payment may have gone through, it will be finished, do not pay again", async ({
    startApp,
  }) => {
    const provider = new ControllableProvider();
    const app = await startApp({ provider });
    const { session, request } = await placedOrder(app);
    // The provider charged; its answer never reached the shop.
    provider.afterCharge = async () => {
      throw new ProviderUnavailableError("network");
    };

    const error = await app
      .caller(session)
      .payments.charge(request)
      .then(
        () => null,
        (caught: unknown) => caught as Error,
      );
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(error?.message).toMatch(/may have gone through/);
    expect(error?.message).toMatch(/automatically/);
    expect(error?.message).toMatch(/do not pay again/);
    expect(error?.message).not.toMatch(/nothing happened/);
  });

  test("another card on an attempt whose card is saved: 422 naming the card in use, nothing charged to it, the order still payable", async ({
    startApp,
  }) => {
    const provider = new ControllableProvider();
    const app = await startApp({ provider });
    const { session, order, request } = await placedOrder(app);
    // Card 4242 is saved, then the provider answers 503 until the shop gives up.
    provider.beforeCharge = async () => {
      throw new ProviderUnavailableError("HTTP 503");
    };
    await expect(app.caller(session).payments.charge(request)).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
    });
    provider.beforeCharge = undefined;

    await expect(
      app.caller(session).payments.charge({ ...request, cardNumber: OTHER_CARD }),
    ).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: expect.stringContaining("•••• 4242"),
    });
    expect(provider.chargeCalls).toBe(1);
    expect(await app.paymentProvider.db.paymentMethod.count({ where: { cardLast4: "4444" } })).toBe(0);
    expect(await app.paymentProvider.db.charge.count({ where: { orderRef: order.id } })).toBe(0);

    // The order stays payable, with the card in use.
    await expect(app.caller(session).payments.charge(request)).resolves.toMatchObject({ cardLast4: "4242" });
  });
});
