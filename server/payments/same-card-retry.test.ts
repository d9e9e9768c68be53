import { describe, expect } from "vitest";
import { test } from "~/testing/fixtures";
import { appWithOrder } from "~/testing/placed-order";
import type { TestApp } from "~/testing/test-app";
import { ProviderUnavailableError } from "../payment-provider/payment-provider";

/** A new PaymentMethod of the test Visa, as the card field makes one on every submit. */
async function visaMethod(app: TestApp): Promise<string> {
  const card = { number: "4242424242424242", exp_month: 12, exp_year: 2034, cvc: "123" };
  return (await app.paymentProvider.stripe().paymentMethods.create({ type: "card", card })).id;
}

describe("a retry may carry a new PaymentMethod of the same card: the same payment, not key reuse", () => {
  test("after the charge: the retry with another method of the card gets the same charge", async ({
    startApp,
  }) => {
    const { app, session, order, charge: request } = await appWithOrder(startApp);
    const [first, second] = [await visaMethod(app), await visaMethod(app)];
    const charged = await app.caller(session).payments.charge({ ...request, paymentMethodId: first });
    await expect(
      app.caller(session).payments.charge({ ...request, paymentMethodId: second }),
    ).resolves.toMatchObject({ chargeId: charged.chargeId });
    expect(await app.paymentProvider.db.charge.count({ where: { orderRef: order.id } })).toBe(1);
  });

  test("after the recovery point: the retry with another method of the card finishes the payment with the saved one", async ({
    startApp,
  }) => {
    const { provider, app, session, order, charge: request } = await appWithOrder(startApp);
    const [first, second] = [await visaMethod(app), await visaMethod(app)];
    // The first method is saved, then the provider answers 503 until the shop gives up.
    provider.beforeCharge = async () => {
      throw new ProviderUnavailableError("HTTP 503");
    };
    await expect(
      app.caller(session).payments.charge({ ...request, paymentMethodId: first }),
    ).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    provider.beforeCharge = undefined;

    await expect(
      app.caller(session).payments.charge({ ...request, paymentMethodId: second }),
    ).resolves.toMatchObject({ cardLast4: "4242" });
    expect(await app.paymentProvider.db.charge.findMany({ where: { orderRef: order.id } })).toMatchObject([
      { paymentMethod: first },
    ]);
  });
});
