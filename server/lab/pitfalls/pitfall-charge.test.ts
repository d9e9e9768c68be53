import { describe, expect } from "vitest";
import { trpcPost } from "~/testing/api-client";
import { test } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import { newSignedSession } from "~/testing/signed-session";
import type { TestApp } from "~/testing/test-app";
import { handleTrpcRequest } from "../../trpc/http-handler";
import { labAppRouter } from "../lab-router";
import { labProviderOf } from "../lab-provider";
import { setSwitches } from "../switches";
import type { ShopSwitches } from "../switches";

/** One instance of the lab's API, as `npm run demo` serves it. */
function apiOf(app: TestApp) {
  return (path: string, body: unknown, cookie: string) =>
    handleTrpcRequest(trpcPost(path, body, cookie), app.services, labAppRouter);
}

/** An order in pitfall mode, with the given switches, and a way to pay it on either instance. */
async function pitfallOrder(apps: TestApp[], switches: Partial<ShopSwitches>) {
  const [first] = apps;
  if (!first) throw new Error("at least one app");
  const { id, cookie } = await newSignedSession(first.services.db);
  const order = await first.caller(id).orders.place({
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  });
  await setSwitches(first.services.db, order.id, { pitfallMode: true, ...switches });
  const body = chargeBody(order);
  return {
    order,
    /** Posts to the lab's API on the first instance, as the order's customer. */
    post: (path: string, payload: unknown) => apiOf(first)(path, payload, cookie),
    /** Pays on the given instance; answers the status and the server's decision. */
    async pay(app: TestApp = first) {
      const response = await apiOf(app)("lab.pitfallCharge", body, cookie);
      await response.text();
      return [response.status, response.headers.get("Idempotency-Decision")] as const;
    },
    charges: () => first.services.db.charge.count({ where: { orderId: order.id } }),
  };
}

describe("partial commit: a failure after the write", () => {
  test("with the completion apart from the write, the key is released and the retry charges again", async ({
    startApp,
  }) => {
    const app = await startApp({ lab: true });
    const { pay, charges } = await pitfallOrder([app], {
      brokenRule: "partial-commit",
      failuresAfterWrite: 1,
    });
    expect((await pay())[0]).toBe(503);
    expect(await pay()).toEqual([200, "executed"]);
    expect(await charges()).toBe(2);
  });

  test("with the completion in the write's transaction, the failure after it cannot release the key", async ({
    startApp,
  }) => {
    const app = await startApp({ lab: true });
    const { order, pay, charges } = await pitfallOrder([app], { brokenRule: null, failuresAfterWrite: 1 });
    expect(await pay()).toEqual([200, "executed"]);
    expect(await pay()).toEqual([200, "replayed"]);
    expect(await charges()).toBe(1);
    // The attempt is settled with the charge: the ledger shows it succeeded, not open.
    expect(
      await app.services.db.paymentAttempt.findUniqueOrThrow({ where: { key: order.paymentKey } }),
    ).toMatchObject({ status: "SUCCEEDED", cardLast4: "4242", settledBy: "client" });
  });
});

describe("memory store: two instances on one database", () => {
  test("with keys in each process's memory, a retry on the other instance charges again", async ({
    startApp,
  }) => {
    const a = await startApp({ lab: true });
    const b = await startApp({ lab: true, database: a.database, paymentProvider: a.paymentProvider });
    const { pay, charges } = await pitfallOrder([a, b], { brokenRule: "memory-store" });
    expect(await pay(a)).toEqual([200, "executed"]);
    expect(await pay(a)).toEqual([200, "replayed"]);
    expect(await pay(b)).toEqual([200, "executed"]);
    expect(await charges()).toBe(2);
  });

  test("with the shared store, the other instance replays", async ({ startApp }) => {
    const a = await startApp({ lab: true });
    const b = await startApp({ lab: true, database: a.database, paymentProvider: a.paymentProvider });
    const { pay, charges } = await pitfallOrder([a, b], { brokenRule: null });
    expect(await pay(a)).toEqual([200, "executed"]);
    expect(await pay(b)).toEqual([200, "replayed"]);
    expect(await charges()).toBe(1);
  });
});

describe("caching errors: the provider's transient 503", () => {
  test("stored as the outcome, it is replayed to every retry, and nothing is ever charged", async ({
    startApp,
  }) => {
    const app = await startApp({ lab: true });
    const { order, pay, charges } = await pitfallOrder([app], { brokenRule: "cached-error" });
    await labProviderOf(app.services.provider).providerFaults(order.id, { unavailable: 1 });
    expect((await pay())[0]).toBe(503);
    expect(await pay()).toEqual([503, "replayed"]);
    expect(await pay()).toEqual([503, "replayed"]);
    expect(await charges()).toBe(0);
    expect((await labProviderOf(app.services.provider).providerFaults(order.id)).unavailable).toBe(0);
  });

  test("with only final answers stored, the retry charges once", async ({ startApp }) => {
    const app = await startApp({ lab: true });
    const { order, pay, charges } = await pitfallOrder([app], { brokenRule: null });
    await labProviderOf(app.services.provider).providerFaults(order.id, { unavailable: 1 });
    expect((await pay())[0]).toBe(503);
    expect(await pay()).toEqual([200, "executed"]);
    expect(await charges()).toBe(1);
  });
});

test("an order out of pitfall mode is refused with 412, before any key is claimed", async ({ startApp }) => {
  const app = await startApp({ lab: true });
  const { pay, charges } = await pitfallOrder([app], { pitfallMode: false });
  expect(await pay()).toEqual([412, null]);
  expect(await charges()).toBe(0);
});

test("bad input is a 400 with nothing changed: an unknown rule, an unknown field", async ({ startApp }) => {
  const app = await startApp({ lab: true });
  const { order, post, charges } = await pitfallOrder([app], { brokenRule: null });
  const unknownRule = await post("lab.setSwitches", {
    orderId: order.id,
    shop: { brokenRule: "no-keys-at-all" },
  });
  expect(unknownRule.status).toBe(400);
  const unknownField = await post("lab.pitfallCharge", {
    orderId: order.id,
    amountCents: order.totalCents,
    idempotencyKey: order.paymentKey,
    brokenRule: "memory-store",
  });
  expect(unknownField.status).toBe(400);
  expect(await charges()).toBe(0);
  const known = await post("lab.setSwitches", { orderId: order.id, shop: { brokenRule: "memory-store" } });
  expect(known.status).toBe(200);
});
