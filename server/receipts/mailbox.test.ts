import { expect } from "vitest";
import { mailboxStory } from "~/app/_lib/story/queue-story";
import { ControllableProvider } from "~/testing/controllable-provider";
import { chargeBody } from "~/testing/lab-orders";
import { test } from "~/testing/fixtures";
import { naiveCharge } from "../lab/naive-charge";
import { newSessionId } from "../session";

test("the mailbox knows which paid orders have a payment event: on its way, dead-lettered, or why no receipt will come", async ({
  startApp,
}) => {
  const app = await startApp({ provider: new ControllableProvider(), lab: true });
  const { db } = app.services;
  const sessionId = newSessionId();
  const caller = app.caller(sessionId);
  const place = () =>
    caller.orders.place({
      submissionKey: `sub-${crypto.randomUUID()}`,
      items: [{ sku: "notebook", quantity: 1 }],
    });
  const [paid, dead, naive, bypassed] = [await place(), await place(), await place(), await place()];
  await caller.payments.charge(chargeBody(paid));
  await caller.payments.charge(chargeBody(dead));
  await db.outboxEvent.updateMany({ where: { orderId: dead.id }, data: { deadAt: new Date() } });
  await naiveCharge(
    { ...app.services, sessionId, http: null },
    {
      orderId: naive.id,
      amountCents: naive.totalCents,
      attemptKey: "naive_1",
      paymentMethodId: "pm_card_visa",
    },
  );
  // A charge written without its event, as the lab's pitfall charges write theirs.
  await db.$transaction([
    db.charge.create({
      data: {
        id: "ch_bypassed",
        orderId: bypassed.id,
        amountCents: 1,
        idempotencyKey: "k",
        cardLast4: "4242",
      },
    }),
    db.order.update({ where: { id: bypassed.id }, data: { status: "PAID" } }),
  ]);

  const mailbox = await caller.ledger.mailbox();
  const verdicts = mailbox.map((order) => {
    const { words, why } = mailboxStory(order.account).verdict;
    return [order.orderId, why ? `${words}: ${why}` : words];
  });
  expect(Object.fromEntries(verdicts)).toEqual({
    [paid.id]: "on its way",
    [dead.id]: "no receipt will come: the queue dead-lettered its payment event",
    [naive.id]: "no receipt will come: the naive client's charge wrote no payment.succeeded event",
    [bypassed.id]:
      "no receipt will come: its charge skipped the outbox (a lab pitfall): no payment.succeeded event",
  });
});
