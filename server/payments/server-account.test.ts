import { describe, expect, vi } from "vitest";
import { PROVIDER_CALLS_PATH } from "../account/provider-calls";
import { REQUESTS_KEPT_PER_KEY } from "../account/request-record";
import type { RequestRecord } from "../account/request-record";
import { ageKeyPastRetention } from "../lab/age-key";
import { labProviderOf } from "../lab/lab-provider";
import { naiveCharge } from "../lab/naive-charge";
import { ProviderUnavailableError } from "../payment-provider/payment-provider";
import { newSessionId } from "../session";
import { ControllableProvider } from "~/testing/controllable-provider";
import { gate } from "~/testing/gate";
import { test } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import type { TestApp } from "~/testing/test-app";

/** A record of key `key`'s request `second` s after the epoch. */
function journalRecord(key: string, second: number): RequestRecord {
  return {
    id: crypto.randomUUID(),
    scope: { caller: "journal", path: "p", key },
    at: new Date(second * 1000),
    instance: "test",
    generation: null,
    decision: "replayed",
    keyState: "completed",
    fingerprint: "f",
    body: { second },
    status: 200,
    durationMs: 1,
    replyLost: false,
    retryAfterSeconds: null,
    keyExpiresAt: null,
    sentBy: "client",
  };
}

async function customer(app: TestApp) {
  const sessionId = newSessionId();
  const caller = app.caller(sessionId);
  const order = await caller.orders.place({
    submissionKey: `sub-${crypto.randomUUID()}`,
    items: [{ sku: "notebook", quantity: 1 }],
  });
  const body = chargeBody(order);
  // The card is not fingerprinted (two tabs make two PaymentMethods of one card): another amount is another payload.
  const pay = (payload: "same" | "different" = "same") =>
    caller.payments.charge({ ...body, amountCents: body.amountCents + (payload === "same" ? 0 : 1) }).then(
      () => 200,
      (error: { code?: string }) => error.code ?? "error",
    );
  const account = async () => {
    await app.services.account.flush();
    return caller.orders.serverAccount({ orderId: order.id });
  };
  /** The latest request's cell of the grid, and what it was told. */
  const latest = async () => {
    const last = (await account()).requests.at(-1);
    return last && [last.keyState, last.payload, last.decision, last.status];
  };
  const charges = () => app.services.db.charge.count({ where: { orderId: order.id } });
  const age = () => ageKeyPastRetention({ ...app.services, sessionId }, order.id);
  return { sessionId, order, pay, account, latest, charges, age };
}

describe("the server's account, cell by cell of the key state grid", () => {
  test("absent, same payload: executed", async ({ startApp }) => {
    const app = await startApp();
    const c = await customer(app);
    expect(await c.pay()).toBe(200);
    expect(await c.latest()).toEqual(["absent", "same", "executed", 200]);
    expect(await c.charges()).toBe(1);
    // The charge names the request that made it; its replay made none.
    expect(await c.pay()).toBe(200);
    const [executed, replayed] = (await c.account()).requests;
    expect(replayed?.decision).toBe("replayed");
    const charges = await app.services.db.charge.findMany({ where: { orderId: c.order.id } });
    expect(charges.map((charge) => charge.recordedBy)).toEqual([executed!.id]);
  });

  test("absent, different payload: a released key runs the new body, which the order refuses", async ({
    startApp,
  }) => {
    const provider = new ControllableProvider();
    const app = await startApp({ provider });
    const c = await customer(app);
    // The provider never answers: the key is released, so the next request runs, whatever its body.
    provider.beforeCharge = () => Promise.reject(new ProviderUnavailableError("network"));
    expect(await c.pay()).toBe("SERVICE_UNAVAILABLE");
    provider.beforeCharge = undefined;
    expect(await c.latest()).toEqual(["absent", "same", "released", 503]);
    expect(await c.pay("different")).toBe("BAD_REQUEST");
    expect(await c.latest()).toEqual(["absent", "different", "refused", 400]);
    expect(await c.pay()).toBe(200);
    expect(await c.charges()).toBe(1);
    // The account keeps the body as sent: a PaymentMethod's id, never a card number.
    const kept = await c.account();
    expect(kept.requests.at(-1)?.body).toMatchObject({
      orderId: c.order.id,
      paymentMethodId: "pm_card_visa",
    });
  });

  test("in progress, same payload: coalesced; different payload: 422", async ({ startApp }) => {
    const provider = new ControllableProvider();
    const app = await startApp({ provider });
    const c = await customer(app);
    const held = gate();
    provider.beforeCharge = () => held.opened;
    const first = c.pay();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await c.pay("different")).toBe("UNPROCESSABLE_CONTENT");
    expect(await c.latest()).toEqual(["in_progress", "different", "mismatch", 422]);
    // The held request is in the account while in flight, and completed in place once answered.
    const inFlight = (await c.account()).requests[0]!;
    expect([inFlight.decision, inFlight.status]).toEqual([null, null]);
    const second = c.pay();
    await new Promise((resolve) => setTimeout(resolve, 50));
    held.open();
    expect(await Promise.all([first, second])).toEqual([200, 200]);
    const cells = (await c.account()).requests.map((a) => [a.keyState, a.payload, a.decision, a.status]);
    expect(cells).toContainEqual(["in_progress", "same", "coalesced", 200]);
    expect(cells[0]).toEqual(["absent", "same", "executed", 200]);
    expect(cells).toHaveLength(3);
    expect(await c.charges()).toBe(1);
  });

  test("in progress past the wait bound: 409 with Retry-After, the key found in progress", async ({
    startApp,
  }) => {
    const provider = new ControllableProvider();
    const app = await startApp({ provider, settings: { waitMs: 100 } });
    const c = await customer(app);
    const held = gate();
    provider.beforeCharge = () => held.opened;
    const first = c.pay();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await c.pay()).toBe("CONFLICT");
    const conflict = (await c.account()).requests.at(-1);
    expect([conflict?.keyState, conflict?.decision, conflict?.status]).toEqual([
      "in_progress",
      "conflict",
      409,
    ]);
    expect(conflict?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    held.open();
    expect(await first).toBe(200);
    expect(await c.charges()).toBe(1);
  });

  test("completed: same payload replayed, different payload 422, both of one generation", async ({
    startApp,
  }) => {
    const app = await startApp();
    const c = await customer(app);
    await c.pay();
    expect(await c.pay()).toBe(200);
    expect(await c.latest()).toEqual(["completed", "same", "replayed", 200]);
    expect(await c.pay("different")).toBe("UNPROCESSABLE_CONTENT");
    expect(await c.latest()).toEqual(["completed", "different", "mismatch", 422]);
    const [executed, replayed] = (await c.account()).requests;
    expect(replayed?.generation).toBe(executed?.generation);
    expect(await c.charges()).toBe(1);
  });

  test.for([["same"], ["different"]] as const)(
    "expired, %s payload: runs again, and the paid order refuses a second charge",
    async ([payload], { startApp }) => {
      // The lab ages the key in the table; with the lab on, no process answers it from memory.
      const app = await startApp({ lab: true });
      const c = await customer(app);
      await c.pay();
      await c.age();
      expect((await c.account()).keys[0]?.state).toBe("expired");
      expect(await c.pay(payload)).toBe("PRECONDITION_FAILED");
      expect(await c.latest()).toEqual(["expired", payload, "refused", 412]);
      expect(await c.charges()).toBe(1);
    },
  );
});

describe("the record itself", () => {
  test("keeps the newest requests of a key, up to its cap", async ({ startApp }) => {
    const app = await startApp();
    const c = await customer(app);
    await c.pay();
    for (let i = 0; i < 55; i++) await c.pay();
    const { requests } = await c.account();
    expect(requests).toHaveLength(50);
    expect(requests.every((a) => a.decision === "replayed")).toBe(true);
  });

  test("writes a batch of many keys in a few statements and caps each key to its newest", async ({
    startApp,
  }) => {
    const app = await startApp();
    const journal = app.services.account.journal;
    // Past one statement's rows (100), with two keys over the cap and one under it.
    const records = [
      ...Array.from({ length: 120 }, (_, i) => journalRecord("busy", i)),
      ...Array.from({ length: 110 }, (_, i) => journalRecord("storm", i)),
      ...Array.from({ length: 3 }, (_, i) => journalRecord("quiet", i)),
    ];
    const statements = async () =>
      (await app.services.metrics.registry.getSingleMetric("db_queries_total")!.get()).values[0]?.value ?? 0;
    const statementsBefore = await statements();
    await journal.append(records, REQUESTS_KEPT_PER_KEY);
    // Prisma's multi-row INSERTs (sized to the engine's limit on bound values), one DELETE, a replay
    // count per key and the COMMIT; a statement per record would be over 200.
    expect((await statements()) - statementsBefore).toBeLessThanOrEqual(8);
    const kept = await journal.list("journal", "p", ["busy", "storm", "quiet"]);
    const seconds = (key: string) =>
      kept.filter((r) => r.scope.key === key).map((r) => r.at.getTime() / 1000);
    expect(seconds("busy")).toEqual(Array.from({ length: 50 }, (_, i) => 70 + i));
    expect(seconds("storm")).toEqual(Array.from({ length: 50 }, (_, i) => 60 + i));
    expect(seconds("quiet")).toEqual([0, 1, 2]);
  });

  test("the shop's calls to the provider: each try under the derived key, by its run, and a reply that never came", async ({
    startApp,
  }) => {
    const app = await startApp({ lab: true });
    const c = await customer(app);
    await labProviderOf(app.services.provider).providerFaults(c.order.id, { dropReplies: 1 });
    expect(await c.pay()).toBe(200);
    const account = await c.account();
    const [request] = account.requests;
    const calls = account.providerCalls.map((call) => [
      call.path,
      call.key,
      call.paymentKey,
      call.run,
      call.try,
      call.decision,
      call.status,
      call.noReply,
    ]);
    const charge = [
      "POST /v1/payment_intents",
      `${c.order.paymentKey}/charge`,
      c.order.paymentKey,
      request!.id,
    ];
    expect(calls).toEqual([
      [...charge, 1, null, null, true],
      [...charge, 2, "replayed", 200, false],
    ]);
    // The charge names the request that made it: the first call's, whose reply never came; the replay is another.
    const [recorded] = await app.services.db.charge.findMany({ where: { orderId: c.order.id } });
    expect(recorded).toMatchObject({
      recordedBy: request!.id,
      providerRequestId: expect.stringMatching(/^req_/),
    });
    expect(account.providerCalls.map((call) => call.requestId)).toEqual([
      null,
      expect.stringMatching(/^req_/),
    ]);
    expect(account.providerCalls[1]!.requestId).not.toBe(recorded!.providerRequestId);
    // Another session's account shows none of them.
    await expect(app.caller().orders.serverAccount({ orderId: c.order.id })).rejects.toThrow();
  });

  test("a crash loses only the batches: the run a charge names, and the call that made it, are on record without them", async ({
    startApp,
  }) => {
    const app = await startApp({ lab: true });
    // The batches are never written, as if the server died before each: only what is written with the work stays.
    vi.spyOn(app.services.account.journal, "append").mockResolvedValue();
    vi.spyOn(app.services.account.journal, "markReplyLost").mockResolvedValue();
    const c = await customer(app);
    await labProviderOf(app.services.provider).providerFaults(c.order.id, { dropReplies: 1 });
    expect(await c.pay()).toBe(200);
    const [charge] = await app.services.db.charge.findMany({ where: { orderId: c.order.id } });
    const run = await app.services.db.requestRecord.findUniqueOrThrow({ where: { id: charge!.recordedBy! } });
    expect(run).toMatchObject({
      sentBy: "client",
      decision: "executed",
      status: 200,
      key: c.order.paymentKey,
    });
    // Both tries of the call are on record, in flight as they left, each naming the run: the first one, whose
    // reply never came, made the charge (the second's reply names another request).
    const calls = await app.services.db.requestRecord.findMany({
      where: { scope: c.order.id, path: PROVIDER_CALLS_PATH },
      orderBy: { at: "asc" },
    });
    expect(calls.map((call) => [call.key, call.status, JSON.parse(call.body).run])).toEqual([
      [charge!.providerKey, null, run.id],
      [charge!.providerKey, null, run.id],
    ]);
  });

  test("the naive client's requests: each under the key it made, flagged, and outside the grid", async ({
    startApp,
  }) => {
    const app = await startApp({ lab: true });
    const c = await customer(app);
    const deps = { ...app.services, sessionId: c.sessionId, http: null };
    const input = { orderId: c.order.id, amountCents: c.order.totalCents, paymentMethodId: "pm_card_visa" };
    await naiveCharge(deps, { ...input, attemptKey: "naive_1" });
    await naiveCharge(deps, { ...input, attemptKey: "naive_2" });
    const { requests } = await c.account();
    expect(requests.map((a) => [a.key, a.sentBy, a.decision, a.status, a.keyState])).toEqual([
      ["naive_1", "naive client", "executed", 200, null],
      ["naive_2", "naive client", "executed", 200, null],
    ]);
    expect(requests[0]!.body).toMatchObject({ paymentMethodId: "pm_card_visa" });
    expect(await c.charges()).toBe(2);
  });

  test("is swept with its key, once the grace has passed since its last request", async ({ startApp }) => {
    const app = await startApp();
    const c = await customer(app);
    await c.pay();
    await c.account();
    const journal = app.services.account.journal;
    const later = new Date(Date.now() + 60_000);
    // The key still exists: its record stays, however old.
    expect(await journal.sweep(later)).toBe(0);
    await app.services.db.idempotencyKey.deleteMany({ where: { key: c.order.paymentKey } });
    expect(await journal.sweep(new Date(0))).toBe(0);
    expect(await journal.sweep(later)).toBe(1);
    expect((await c.account()).requests).toEqual([]);
  });
});
