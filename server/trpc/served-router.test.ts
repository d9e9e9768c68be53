import { describe, expect } from "vitest";
import { trpcPost } from "~/testing/api-client";
import { test } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import { newSignedSession } from "~/testing/signed-session";
import type { TestApp } from "~/testing/test-app";
import { handleTrpcRequest } from "./http-handler";
import { labAppRouter } from "../lab/lab-router";
import { appRouter } from "./routers/_app";
import { servedRouter } from "./served-router";

/** What a process with this configuration answers, over its HTTP handler. */
async function served(app: TestApp, opts: { lab: boolean; benchBaseline: boolean }) {
  const { id: session, cookie } = await newSignedSession(app.services.db);
  const router = servedRouter(opts.lab ? labAppRouter : appRouter, opts);
  const post = (path: string, body: unknown) =>
    handleTrpcRequest(trpcPost(path, body, cookie), app.services, router);
  const order = await app.caller(session).orders.place({
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  });
  const charge = chargeBody(order);
  return { post, order, charge, db: app.services.db };
}

const labSwitches = (orderId: string) => ({ orderId, shop: { naiveClient: true } });

describe("the router a process serves", () => {
  test("in production has neither the lab nor the bench baseline", async ({ startApp }) => {
    const { post, order, charge, db } = await served(await startApp(), { lab: false, benchBaseline: false });
    expect((await post("lab.setSwitches", labSwitches(order.id))).status).toBe(404);
    expect((await post("bench.unprotectedCharge", charge)).status).toBe(404);
    expect(await db.labSwitches.count()).toBe(0);
    expect(await db.charge.count()).toBe(0);
  });

  test("with the lab on, has the lab's procedures, and still no bench baseline", async ({ startApp }) => {
    const { post, order, charge } = await served(await startApp({ lab: true }), {
      lab: true,
      benchBaseline: false,
    });
    expect((await post("lab.setSwitches", labSwitches(order.id))).status).toBe(200);
    expect((await post("bench.unprotectedCharge", charge)).status).toBe(404);
  });

  test("with the bench baseline on, charges without a key's claim: the baseline writes no key", async ({
    startApp,
  }) => {
    const { post, order, charge, db } = await served(await startApp(), { lab: false, benchBaseline: true });
    expect((await post("bench.unprotectedCharge", charge)).status).toBe(200);
    expect(await db.charge.count({ where: { orderId: order.id } })).toBe(1);
    expect(await db.idempotencyKey.count({ where: { key: order.paymentKey } })).toBe(0);
  });
});
