import Stripe from "stripe";
import { expect, onTestFinished, test } from "vitest";
import { acceptingEndpoint, startTestProvider } from "~/testing/test-provider";

/** Stripe's request ids, as its own client exposes them: the `stripe` package alone. */

async function provider() {
  const merchant = await acceptingEndpoint();
  const running = await startTestProvider({ webhooks: merchant.endpoint });
  onTestFinished(async () => {
    await running.close();
    await merchant.close();
  });
  return running;
}

const REQUEST_ID = /^req_[0-9a-f]{14}$/;
const params = (paymentMethod: string) => ({
  amount: 1200,
  currency: "usd",
  payment_method: paymentMethod,
  confirm: true,
  metadata: { order: "ord_req", payment_key: "pay_req" },
});

test("every answer has a Request-Id; a replay names the request that executed as Original-Request; the event carries it", async () => {
  const running = await provider();
  const stripe = running.stripe();
  const intent = await stripe.paymentIntents.create(params("pm_card_visa"), { idempotencyKey: "k_req" });
  const executed = intent.lastResponse.requestId;
  expect(executed).toMatch(REQUEST_ID);
  expect(intent.lastResponse.headers["original-request"]).toBeUndefined();

  const replay = await stripe.paymentIntents.create(params("pm_card_visa"), { idempotencyKey: "k_req" });
  expect(replay.lastResponse.requestId).toMatch(REQUEST_ID);
  expect(replay.lastResponse.requestId).not.toBe(executed);
  expect(replay.lastResponse.headers).toMatchObject({
    "idempotent-replayed": "true",
    "original-request": executed,
  });

  // The PaymentIntent's row keeps the request that made it, and its event names it with its key.
  expect(await running.db.charge.findFirstOrThrow()).toMatchObject({ requestId: executed });
  const [event] = (await stripe.events.list({ type: "payment_intent.succeeded" })).data;
  expect(event!.request).toEqual({ id: executed, idempotency_key: "k_req" });
  expect((await stripe.events.retrieve(event!.id)).lastResponse.requestId).toMatch(REQUEST_ID);
});

test("a decline's error has its Request-Id, and its replay names the declined request as Original-Request", async () => {
  const running = await provider();
  const stripe = running.stripe();
  const decline = async () => {
    const error: unknown = await stripe.paymentIntents
      .create(params("pm_card_chargeDeclined"), { idempotencyKey: "k_declined" })
      .then(
        () => null,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    return error as Stripe.errors.StripeCardError;
  };
  const declined = await decline();
  expect(declined.requestId).toMatch(REQUEST_ID);
  expect(declined.headers).toMatchObject({ "request-id": declined.requestId });

  const replayed = await decline();
  expect(replayed.requestId).not.toBe(declined.requestId);
  expect(replayed.headers).toMatchObject({
    "idempotent-replayed": "true",
    "original-request": declined.requestId,
  });
  const [event] = (await stripe.events.list({ type: "payment_intent.payment_failed" })).data;
  expect(event!.request).toEqual({ id: declined.requestId, idempotency_key: "k_declined" });

  // A refusal and a missing object have one too.
  const missing = await stripe.paymentIntents.retrieve("pi_missing").catch((error: unknown) => error);
  expect(missing).toMatchObject({ statusCode: 404, requestId: expect.stringMatching(REQUEST_ID) });
});

test("search by the order and any other metadata field, in Stripe's query language", async () => {
  const running = await provider();
  const stripe = running.stripe();
  const first = await stripe.paymentIntents.create(params("pm_card_visa"), { idempotencyKey: "k_1" });
  const second = await stripe.paymentIntents.create(
    { ...params("pm_card_visa"), metadata: { order: "ord_req", payment_key: "pay_other" } },
    { idempotencyKey: "k_2" },
  );
  const search = async (query: string) =>
    (await stripe.paymentIntents.search({ query, expand: ["data.latest_charge"] })).data.map(
      (intent) => intent.id,
    );
  expect(await search("metadata['order']:'ord_req'")).toEqual([first.id, second.id]);
  expect(await search("metadata['order']:'ord_req' AND metadata['payment_key']:'pay_other'")).toEqual([
    second.id,
  ]);
  expect(await search("metadata['order']:'ord_req' AND metadata['payment_key']:'pay_none'")).toEqual([]);
  expect(await search("metadata['order']:'ord_none' AND metadata['payment_key']:'pay_req'")).toEqual([]);
  const [expanded] = (
    await stripe.paymentIntents.search({
      query: "metadata['order']:'ord_req' AND metadata['payment_key']:'pay_req'",
      expand: ["data.latest_charge"],
    })
  ).data;
  expect(expanded!.latest_charge).toMatchObject({ object: "charge", metadata: { payment_key: "pay_req" } });
  await expect(stripe.paymentIntents.search({ query: "amount>100" })).rejects.toMatchObject({
    statusCode: 400,
    param: "query",
  });
});
