import { expect } from "vitest";
import { trpcPost } from "~/testing/api-client";
import { test } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import { newSignedSession } from "~/testing/signed-session";
import type { TestApp } from "~/testing/test-app";
import { handleTrpcRequest } from "../trpc/http-handler";
import { labAppRouter } from "./lab-router";
import { PAYMENT_KEYSPACE } from "../payments/keyspace";
import { losingReplies } from "./reply-dropper";
import { readSwitches, setSwitches } from "./switches";

/** The lab's API as `npm run demo` serves it: the lab's router, its lost replies around it. */
async function labApi(startApp: (opts: { lab: boolean }) => Promise<TestApp>) {
  const app = await startApp({ lab: true });
  const handle = losingReplies(app.services.db, app.services.account, (request) =>
    handleTrpcRequest(request, app.services, labAppRouter),
  );
  const customer = async () => {
    const { id, cookie } = await newSignedSession(app.services.db);
    const order = await app.caller(id).orders.place({
      submissionKey: crypto.randomUUID(),
      items: [{ sku: "notebook", quantity: 1 }],
    });
    const post = (path: string, body: unknown) => handle(trpcPost(path, body, cookie));
    return { order, post, sessionId: id };
  };
  return { app, customer };
}

test("a lab switch is spent only by its own order's committed charge, never named by another caller's body", async ({
  startApp,
}) => {
  const { app, customer } = await labApi(startApp);
  const victim = await customer();
  const attacker = await customer();
  await setSwitches(app.services.db, victim.order.id, { dropReplies: 1 });

  // A batch whose body names the victim's order beside the attacker's own charge.
  const batch = await attacker.post("payments.charge?batch=1", {
    0: {
      orderId: attacker.order.id,
      amountCents: attacker.order.totalCents,
      idempotencyKey: attacker.order.paymentKey,
      paymentMethodId: "pm_card_visa",
    },
    orderId: victim.order.id,
  });
  expect(batch.ok).toBe(true);
  await batch.text();
  // And a single call carrying the victim's id in an unknown field: refused before anything runs.
  const single = await attacker.post("payments.charge", {
    orderId: attacker.order.id,
    amountCents: attacker.order.totalCents,
    idempotencyKey: attacker.order.paymentKey,
    paymentMethodId: "pm_card_visa",
    victim: victim.order.id,
  });
  expect(single.status).toBe(400);

  expect((await readSwitches(app.services.db, victim.order.id)).dropReplies).toBe(1);
});

test("the victim's own charge spends it: its reply is lost once, the retry is a replay, and the server's account says so", async ({
  startApp,
}) => {
  const { app, customer } = await labApi(startApp);
  const { order, post, sessionId } = await customer();
  await setSwitches(app.services.db, order.id, { dropReplies: 1 });
  const body = chargeBody(order);

  const lost = await post("payments.charge", body);
  await expect(lost.text()).rejects.toThrow();
  const retry = await post("payments.charge", body);
  expect(retry.headers.get("Idempotency-Decision")).toBe("replayed");
  expect((await readSwitches(app.services.db, order.id)).dropReplies).toBe(0);

  await app.services.account.flush();
  const account = await app.services.account.journal.list(sessionId, PAYMENT_KEYSPACE, [order.paymentKey]);
  expect(account.map((a) => [a.decision, a.keyState, a.status, a.replyLost])).toEqual([
    ["executed", "absent", 200, true],
    ["replayed", "completed", 200, false],
  ]);
  expect(account[0]?.id).toBe(lost.headers.get("Run-Once-Request"));
  expect(account[1]?.generation).toBe(account[0]?.generation);
});
