import { expect } from "vitest";
import { newSessionId } from "../session";
import { test } from "~/testing/fixtures";
import type { TestApp } from "~/testing/test-app";
import { reconcile } from "./reconcile";

async function order(app: TestApp) {
  return app.caller(newSessionId()).orders.place({
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  });
}

/** A charge at the provider, under a key of its own, that the shop may or may not record. */
async function providerCharge(app: TestApp, orderId: string, amountCents: number) {
  const answer = await app.services.provider.charge(
    { amountCents, paymentMethodId: "pm_card_visa", orderId, paymentKey: crypto.randomUUID(), run: null },
    crypto.randomUUID(),
  );
  if (!("charged" in answer)) throw new Error("expected a charge");
  return answer.charged;
}

function record(app: TestApp, orderId: string, charge: { id: string; amountCents: number }) {
  return app.services.db.charge.create({
    data: {
      id: charge.id,
      amountCents: charge.amountCents,
      orderId,
      idempotencyKey: "pay_test",
      cardLast4: "4242",
    },
  });
}

test("reconciliation names each kind of disagreement, and none where both sides agree", async ({
  startApp,
}) => {
  const app = await startApp();
  const [agreed, unrecorded, phantom, amounts] = await Promise.all([
    order(app),
    order(app),
    order(app),
    order(app),
  ]);
  await record(app, agreed.id, await providerCharge(app, agreed.id, agreed.totalCents));
  const lost = await providerCharge(app, unrecorded.id, unrecorded.totalCents);
  await record(app, phantom.id, { id: "ch_phantom", amountCents: phantom.totalCents });
  const differs = await providerCharge(app, amounts.id, amounts.totalCents);
  await record(app, amounts.id, { id: differs.id, amountCents: amounts.totalCents + 1 });

  const problems = (await reconcile(app.services, [agreed.id, unrecorded.id, phantom.id, amounts.id])).map(
    (reconciliation) => reconciliation.problems,
  );
  expect(problems).toEqual([
    [],
    [`the provider charged ${lost.id}, which the shop has no record of`],
    ["the shop recorded ch_phantom, which the provider does not have"],
    [
      `${differs.id} is ${amounts.totalCents} at the provider but ${amounts.totalCents + 1} in the shop's record`,
    ],
  ]);
});
