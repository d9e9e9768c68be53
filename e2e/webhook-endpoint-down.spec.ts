import { expect, test } from "./fixtures";
import { drawnDeliveries, eventsSentFor, scenarioTest } from "./scenario-test";

/**
 * The lesson "The webhook endpoint was down", followed as its steps say: the shop is down for the order, so its
 * own roads fail; the catch-up records the payment from the provider's undelivered event, and the provider's
 * next try, once the shop is up, replays it under the event's key.
 */
scenarioTest(
  "the webhook endpoint down: the catch-up records the one charge, and the late redelivery replays it",
  {
    scenario: "webhook-endpoint-down",
    refusals: /status of 503/,
    happened:
      /^What happened: .* the catch-up recorded the payment from the provider's events.* Then the provider's webhook: \d+ deliver(?:y|ies) and 1 catch-up of 1 event\. .*Delivery \d+ \(payment_intent\.succeeded\) answered HTTP 503; the shop wrote no account of it.* Catch-up \d+ \(payment_intent\.succeeded\) ran under the event's id and recorded the payment, as #\d+\. .*Delivery \d+ \(payment_intent\.succeeded\) replayed the stored answer of catch-up \d+ \("recorded"\): recorded nothing\.$/,
    charges: 1,
  },
  async ({ shop, page, orderId, providerDb }) => {
    // The provider's next try after the catch-up may be a minute away (its backoff doubles from 5 s).
    test.slow();
    const shopDown = page.getByLabel("The shop is down");
    await expect(shopDown).toBeChecked();
    await shop.payButton().click();
    await expect(page.getByTestId("payment-unconfirmed")).toBeVisible();
    const catchUp = page.getByRole("button", { name: "Run the catch-up now" });
    // Once the page stops retrying; a pass that met the payment's key held by the completer is pressed again.
    await expect(async () => {
      await catchUp.click();
      await expect(page.getByTestId("catch-up-answer")).toHaveText(
        /^The catch-up handled [1-9]\d* events?\.$/,
      );
      await shop.expectCharged();
    }).toPass({ timeout: 30_000 });
    const [event, ...more] = await eventsSentFor(providerDb, orderId);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ type: "payment_intent.succeeded", deliveredAt: null });
    await shopDown.uncheck();
    await expect
      .poll(async () => (await eventsSentFor(providerDb, orderId))[0]?.deliveredAt, { timeout: 150_000 })
      .toEqual(expect.any(Date));
    // The provider's tries as drawn: refused while the shop was down, then one answered 2xx (the catch-up is no try).
    await expect.poll(() => drawnDeliveries(page)).toContainEqual([event!.id, "200"]);
    const drawn = await drawnDeliveries(page);
    expect(drawn.filter(([, status]) => status === "503").length).toBeGreaterThan(0);
    expect(drawn.at(-1)).toEqual([event!.id, "200"]);
  },
);
