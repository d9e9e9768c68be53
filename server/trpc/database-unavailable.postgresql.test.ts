import Stripe from "stripe";
import { expect } from "vitest";
import { trpcPost } from "~/testing/api-client";
import { EVERY_TABLE, cutWhileLocked } from "~/testing/database-cuts";
import { test } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import { newSignedSession } from "~/testing/signed-session";
import { serveWebhook } from "../webhooks/serve-webhook";
import { handleTrpcRequest } from "./http-handler";
import { labAppRouter } from "../lab/lab-router";

/** What every procedure of the lab's router is called with; a procedure missing here fails the test. */
function callsOf(order: { id: string; paymentKey: string; totalCents: number }) {
  const orderId = { orderId: order.id };
  const charge = chargeBody(order);
  return {
    "catalog.list": null,
    "orders.place": { submissionKey: crypto.randomUUID(), items: [{ sku: "notebook", quantity: 1 }] },
    "orders.get": orderId,
    "orders.serverAccount": orderId,
    "orders.queueAccount": orderId,
    "orders.list": null,
    "payments.charge": charge,
    "ledger.entries": null,
    "ledger.summary": null,
    "ledger.mailbox": null,
    "ledger.reconciliation": null,
    "ledger.counters": null,
    "lab.switches": orderId,
    "lab.setSwitches": { ...orderId, shop: { dropReplies: 1 } },
    "lab.stall": orderId,
    "lab.ageKey": orderId,
    "lab.catchUpNow": null,
    "lab.naiveCharge": {
      ...orderId,
      amountCents: charge.amountCents,
      attemptKey: crypto.randomUUID(),
      paymentMethodId: charge.paymentMethodId,
    },
    "lab.pitfallCharge": charge,
  } satisfies Record<string, unknown>;
}

/** Reads this process's memory only: no database to lose. */
const WITHOUT_DATABASE = new Set(["metrics.runOnce"]);

test("every procedure, read or write, whose database session is terminated mid-query: 503 with Retry-After", async ({
  startApp,
}) => {
  // With a webhook secret, so that the lab's catch-up pass has a catch-up to run.
  const app = await startApp({ lab: true, webhookSecret: "whsec_database_unavailable" });
  const { id, cookie } = await newSignedSession(app.services.db);
  const order = await app.caller(id).orders.place({
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  });
  const router = labAppRouter;
  const calls: Record<string, unknown> = callsOf(order);
  const procedures = Object.keys(router._def.procedures).filter((path) => !WITHOUT_DATABASE.has(path));
  expect(Object.keys(calls).sort()).toEqual(procedures.sort());
  // The session's key is read once, before the database goes.
  await app.services.sessionSecret();

  const send = (path: string, input: unknown) => {
    // Flat at run time, by dotted path.
    const procedures = router._def.procedures as unknown as Record<string, { _def: { type: string } }>;
    return handleTrpcRequest(
      procedures[path]?._def.type === "mutation"
        ? trpcPost(path, input, cookie)
        : new Request(
            `http://shop.test/api/trpc/${path}${input === null ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
            { headers: { cookie } },
          ),
      app.services,
      router,
    );
  };
  // Every table locked: each procedure's first statement waits, and its session is cut there.
  const responses = await cutWhileLocked(app.database.url, EVERY_TABLE, () =>
    Promise.all(
      Object.entries(calls).map(async ([path, input]) => {
        const response = await send(path, input);
        const body = (await response.json()) as { error?: { data: { reason: string | null } } };
        return { path, status: response.status, retryAfter: response.headers.get("Retry-After"), body };
      }),
    ),
  );
  for (const { path, status, retryAfter, body } of responses) {
    expect({ path, status, reason: body.error?.data.reason }).toEqual({
      path,
      status: 503,
      reason: "DATABASE_UNAVAILABLE",
    });
    expect(Number(retryAfter), path).toBeGreaterThanOrEqual(1);
  }
  // Back once the database is: the same read answers.
  expect((await send("catalog.list", null)).status).toBe(200);
});

test("the provider's webhook, its database session cut: 503 with Retry-After, so the provider delivers again", async ({
  startApp,
}) => {
  const secret = "whsec_database_unavailable_secret";
  const app = await startApp({ webhookSecret: secret });
  const payload = JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
    object: "event",
    type: "payment_intent.succeeded",
    data: { object: { id: "pi_unknown", object: "payment_intent", metadata: {} } },
  });
  const delivery = new Request("http://shop.test/api/webhooks/stripe", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret }),
    },
    body: payload,
  });
  const response = await cutWhileLocked(app.database.url, EVERY_TABLE, () =>
    serveWebhook(app.services, delivery),
  );
  expect(response.status).toBe(503);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
});

test("a request whose session key is still to be read from a database out of reach: 503, not 500", async ({
  startApp,
}) => {
  const app = await startApp();
  const response = await cutWhileLocked(app.database.url, EVERY_TABLE, () =>
    handleTrpcRequest(new Request("http://shop.test/api/trpc/catalog.list"), app.services),
  );
  expect(response.status).toBe(503);
  expect(Number(response.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
});
