import Stripe from "stripe";
import { describe, expect, onTestFinished, test } from "vitest";
import fixtures from "~/testing/stripe/fixtures.json";
import { acceptingEndpoint, startTestProvider } from "~/testing/test-provider";

/** The provider's events as a Stripe integration reads them: the `stripe` package alone. */

async function providerWithEvents(opts: { eventRetentionMs?: number } = {}) {
  const merchant = await acceptingEndpoint();
  const provider = await startTestProvider({ ...opts, webhooks: merchant.endpoint });
  onTestFinished(async () => {
    await provider.close();
    await merchant.close();
  });
  const stripe = provider.stripe();
  /** One PaymentIntent, succeeded or declined: one event each. */
  const pay = (paymentMethod: string) =>
    stripe.paymentIntents
      .create({
        amount: 1200,
        currency: "usd",
        payment_method: paymentMethod,
        confirm: true,
        metadata: { order: "ord_ev" },
      })
      .catch((error: unknown) => error);
  return { provider, stripe, pay };
}

const ids = (events: { data: Stripe.Event[] } | Stripe.Event[]) =>
  ("data" in events ? events.data : events).map((event) => event.id);

/** Waits until the wall clock is in a new second, so that events before and after have distinct `created`. */
async function nextSecond(): Promise<number> {
  const second = Math.floor(Date.now() / 1000);
  await new Promise((resolve) => setTimeout(resolve, (second + 1) * 1000 - Date.now() + 20));
  return second + 1;
}

describe("events, as stripe.events.list and retrieve read them", () => {
  test("newest first, in Stripe's list shape, filtered by type, types and created ranges", async () => {
    const { stripe, pay } = await providerWithEvents();
    await pay("pm_card_visa");
    await pay("pm_card_chargeDeclined");
    await pay("pm_card_visa");
    const later = await nextSecond();
    await pay("pm_card_visa");
    await pay("pm_card_chargeDeclinedInsufficientFunds");

    const all = await stripe.events.list({ limit: 100 });
    expect(all).toMatchObject({ object: "list", url: "/v1/events", has_more: false });
    expect(all.data).toHaveLength(5);
    expect(Object.keys(all.data[0]!).sort()).toEqual(Object.keys(fixtures.event).sort());
    const created = all.data.map((event) => event.created);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(all.data.map((event) => event.type)).toEqual([
      "payment_intent.payment_failed",
      "payment_intent.succeeded",
      "payment_intent.succeeded",
      "payment_intent.payment_failed",
      "payment_intent.succeeded",
    ]);

    expect(ids(await stripe.events.list({ type: "payment_intent.succeeded" }))).toEqual(
      ids(all.data.filter((event) => event.type === "payment_intent.succeeded")),
    );
    expect(ids(await stripe.events.list({ type: "payment_intent.*" }))).toEqual(ids(all));
    expect(
      ids(await stripe.events.list({ types: ["payment_intent.payment_failed", "charge.refunded"] })),
    ).toEqual(ids(all.data.filter((event) => event.type === "payment_intent.payment_failed")));
    expect(await stripe.events.list({ type: "customer.created" })).toMatchObject({
      data: [],
      has_more: false,
    });

    // Under load the two later events may straddle a second: each range is checked against the events' own `created`.
    const [newer, older] = [all.data.slice(0, 2), all.data.slice(2)];
    const createdWhere = (keep: (created: number) => boolean) =>
      ids(all.data.filter((event) => keep(event.created)));
    expect(ids(await stripe.events.list({ created: { gte: later } }))).toEqual(ids(newer));
    expect(ids(await stripe.events.list({ created: { gt: later - 1 } }))).toEqual(ids(newer));
    expect(ids(await stripe.events.list({ created: { lt: later } }))).toEqual(ids(older));
    expect(ids(await stripe.events.list({ created: { lte: later - 1 } }))).toEqual(ids(older));
    const inLater = await stripe.events.list({ created: later });
    expect(ids(inLater)).toEqual(createdWhere((created) => created === later));
    expect(inLater.data.length).toBeGreaterThan(0);
    expect(ids(await stripe.events.list({ created: { gt: later } }))).toEqual(
      createdWhere((created) => created > later),
    );
    expect(ids(await stripe.events.list({ created: { gte: later - 1, lte: later } }))).toEqual(
      createdWhere((created) => created >= later - 1 && created <= later),
    );
  });

  test("paged both ways with limit, starting_after and ending_before, and auto-paginated", async () => {
    const { stripe, pay } = await providerWithEvents();
    for (let i = 0; i < 5; i++) await pay("pm_card_visa");
    const all = ids(await stripe.events.list({ limit: 100 }));

    const first = await stripe.events.list({ limit: 2 });
    expect(first).toMatchObject({ has_more: true });
    expect(ids(first)).toEqual(all.slice(0, 2));
    const second = await stripe.events.list({ limit: 2, starting_after: all[1] });
    expect([ids(second), second.has_more]).toEqual([all.slice(2, 4), true]);
    const last = await stripe.events.list({ limit: 2, starting_after: all[3] });
    expect([ids(last), last.has_more]).toEqual([all.slice(4), false]);

    // Back from the oldest: the page just newer than it, still newest first; has_more while newer ones remain.
    const back = await stripe.events.list({ limit: 2, ending_before: all[4] });
    expect([ids(back), back.has_more]).toEqual([all.slice(2, 4), true]);
    const top = await stripe.events.list({ limit: 2, ending_before: all[1] });
    expect([ids(top), top.has_more]).toEqual([all.slice(0, 1), false]);

    // The client's auto-pagination walks every page: forward newest first, backward oldest first.
    expect(ids(await stripe.events.list({ limit: 2 }).autoPagingToArray({ limit: 100 }))).toEqual(all);
    const backward = await stripe.events
      .list({ limit: 2, ending_before: all[4] })
      .autoPagingToArray({ limit: 100 });
    expect(ids(backward)).toEqual(all.slice(0, 4).reverse());
  });

  test("retrieved by id; a missing one is 404 resource_missing; another account's are not there", async () => {
    const { provider, stripe, pay } = await providerWithEvents();
    const intent = (await pay("pm_card_visa")) as Stripe.PaymentIntent;
    const [listed] = (await stripe.events.list()).data;
    const event = await stripe.events.retrieve(listed!.id);
    expect(event).toMatchObject({
      id: listed!.id,
      object: "event",
      type: "payment_intent.succeeded",
      data: { object: { id: intent.id, object: "payment_intent", metadata: { order: "ord_ev" } } },
    });

    const missing = await stripe.events.retrieve("evt_missing").catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing" });
    const elsewhere = provider.stripe("sk_test_another_merchant");
    await expect(elsewhere.events.retrieve(event.id)).rejects.toMatchObject({ statusCode: 404 });
    expect((await elsewhere.events.list()).data).toEqual([]);
    await expect(stripe.events.list({ starting_after: "evt_missing" })).rejects.toMatchObject({
      statusCode: 400,
      code: "resource_missing",
      param: "starting_after",
    });
  });

  test("kept for the retention window (30 days by default, EVENT_RETENTION_MS), then swept", async () => {
    const { stripe, pay } = await providerWithEvents({ eventRetentionMs: 300 });
    await pay("pm_card_visa");
    expect((await stripe.events.list()).data).toHaveLength(1);
    await expect.poll(async () => (await stripe.events.list()).data, { timeout: 5_000 }).toEqual([]);
  });
});
