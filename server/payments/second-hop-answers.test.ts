import { describe, expect } from "vitest";
import { ProviderUnavailableError } from "../payment-provider/payment-provider";
import { appWithOrder } from "~/testing/placed-order";
import { test } from "~/testing/fixtures";

const OTHER_CARD = "pm_card_mastercard";

describe("what the shop answers once the provider may have been called", () => {
  test("a provider that does not answer: the payment may have gone through, it will be finished, do not pay again", async ({
    startApp,
  }) => {
    const { provider, app, session, charge: request } = await appWithOrder(startApp);
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
    const { provider, app, session, order, charge: request } = await appWithOrder(startApp);
    // Card 4242 is saved, then the provider answers 503 until the shop gives up.
    provider.beforeCharge = async () => {
      throw new ProviderUnavailableError("HTTP 503");
    };
    await expect(app.caller(session).payments.charge(request)).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
    });
    provider.beforeCharge = undefined;

    await expect(
      app.caller(session).payments.charge({ ...request, paymentMethodId: OTHER_CARD }),
    ).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: expect.stringContaining("•••• 4242"),
    });
    expect(provider.chargeCalls).toBe(1);
    expect(await app.paymentProvider.db.charge.count({ where: { orderRef: order.id } })).toBe(0);

    // The order stays payable, with the card in use.
    await expect(app.caller(session).payments.charge(request)).resolves.toMatchObject({ cardLast4: "4242" });
  });
});
