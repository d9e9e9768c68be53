import { describe, expect, vi } from "vitest";
import { ControllableProvider } from "~/testing/controllable-provider";
import { gate } from "~/testing/gate";
import { trpcPost } from "~/testing/api-client";
import { test } from "~/testing/fixtures";
import { newSignedSession } from "~/testing/signed-session";
import type { TestApp } from "~/testing/test-app";
import { handleTrpcRequest } from "./http-handler";

/** The tRPC HTTP layer in-process: real Requests and Responses, no server. */
let app: TestApp;
let provider: ControllableProvider;
let cookie: string;

test.beforeEach(async ({ startApp }) => {
  provider = new ControllableProvider();
  // Long enough for a first execution to finish under a loaded CI machine (PostgreSQL's claim takes an owner
  // session), short enough for the 409 past the bound to come quickly.
  app = await startApp({ provider, settings: { waitMs: 1_500 } });
  ({ cookie } = await newSignedSession(app.services.db));
});

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return handleTrpcRequest(trpcPost(path, body, cookie, headers), app.services);
}

async function placeOrder() {
  const response = await post("orders.place", {
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  });
  const { result } = (await response.json()) as { result: { data: { id: string; paymentKey: string } } };
  return result.data;
}

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { message: string; data: { code: string; reason: string | null } } })
    .error;

describe("the Idempotency-Key header and the key field", () => {
  test("accepts the key as a header, bare or as an RFC 8941 string, with the same result", async () => {
    const order = await placeOrder();
    const body = { orderId: order.id, amountCents: 1200, paymentMethodId: "pm_card_visa" };
    const bare = await post("payments.charge", body, { "Idempotency-Key": order.paymentKey });
    const quoted = await post("payments.charge", body, { "Idempotency-Key": `"${order.paymentKey}"` });

    expect(bare.status).toBe(200);
    expect(quoted.status).toBe(200);
    expect(quoted.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await quoted.text()).toBe(await bare.text());
  });

  test("replays byte-identical bodies, marks replays, and tells until when the key is kept", async () => {
    const order = await placeOrder();
    const body = {
      orderId: order.id,
      amountCents: 1200,
      idempotencyKey: order.paymentKey,
      paymentMethodId: "pm_card_visa",
    };
    const first = await post("payments.charge", body);
    const replay = await post("payments.charge", body);

    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(first.headers.get("Idempotency-Decision")).toBe("executed");
    expect(replay.headers.get("Idempotency-Decision")).toBe("replayed");
    const expires = Date.parse(first.headers.get("Idempotency-Key-Expires") ?? "");
    expect(expires).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect(replay.headers.get("Idempotency-Key-Expires")).toBe(first.headers.get("Idempotency-Key-Expires"));
    expect(await replay.text()).toBe(await first.text());
  });

  test.each([
    ["a missing key", {}, "IDEMPOTENCY_KEY_MISSING"],
    [
      "a header and a field that differ",
      { "Idempotency-Key": "other" },
      "IDEMPOTENCY_KEY_CONFLICTING_SOURCES",
    ],
    ["a key over 255 characters", { "Idempotency-Key": "k".repeat(256) }, "IDEMPOTENCY_KEY_INVALID"],
    ["a control character", { "Idempotency-Key": "a\tb" }, "IDEMPOTENCY_KEY_INVALID"],
  ])("answers %s with 400 and a message naming the rule", async (_, headers, reason) => {
    const order = await placeOrder();
    const body =
      reason === "IDEMPOTENCY_KEY_CONFLICTING_SOURCES"
        ? {
            orderId: order.id,
            amountCents: 1200,
            idempotencyKey: order.paymentKey,
            paymentMethodId: "pm_card_visa",
          }
        : { orderId: order.id, amountCents: 1200, paymentMethodId: "pm_card_visa" };
    const response = await post("payments.charge", body, headers);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.data.reason).toBe(reason);
    expect(error.message.length).toBeGreaterThan(20);
    expect(await app.services.db.charge.count()).toBe(0);
  });

  test.each([
    ["empty", ""],
    ["too long", "k".repeat(256)],
    ["non-ASCII", "clé-1"],
  ])("answers a %s key field with 400 naming the rule", async (_, key) => {
    const order = await placeOrder();
    const response = await post("payments.charge", {
      orderId: order.id,
      amountCents: 1200,
      idempotencyKey: key,
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain("1 to 255 printable ASCII characters");
  });
});

describe("batches", () => {
  test("runs each operation of a batch under its own key", async () => {
    const form = (key: string, quantity: number) => ({
      submissionKey: key,
      items: [{ sku: "notebook", quantity }],
    });
    const batch = { 0: form("a", 1), 1: form("b", 2), 2: form("a", 1) };
    const response = await post("orders.place,orders.place,orders.place?batch=1", batch);
    expect(response.status).toBe(200);
    const results = (await response.json()) as Array<{ result: { data: { id: string } } }>;
    expect(results[0]?.result.data.id).toBe(results[2]?.result.data.id);
    expect(results[1]?.result.data.id).not.toBe(results[0]?.result.data.id);
    expect(await app.services.db.order.count()).toBe(2);
  });

  test("refuses an Idempotency-Key header on a batch, which would name several operations", async () => {
    const body = { 0: { items: [{ sku: "notebook", quantity: 1 }] } };
    const response = await post("orders.place?batch=1", body, { "Idempotency-Key": "one-for-all" });
    expect(response.status).toBe(400);
    expect(await app.services.db.order.count()).toBe(0);
  });
});

describe("keys in progress", () => {
  test("answers a duplicate past the wait bound with 409 and Retry-After", async () => {
    const order = await placeOrder();
    const held = gate();
    provider.beforeCharge = () => held.opened;
    const body = {
      orderId: order.id,
      amountCents: 1200,
      idempotencyKey: order.paymentKey,
      paymentMethodId: "pm_card_visa",
    };
    const first = post("payments.charge", body);
    await new Promise((resolve) => setTimeout(resolve, 30));

    const duplicate = await post("payments.charge", body);
    expect(duplicate.status).toBe(409);
    expect(Number(duplicate.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect((await errorOf(duplicate)).data.reason).toBe("IDEMPOTENCY_KEY_IN_PROGRESS");

    held.open();
    expect((await first).status).toBe(200);
    expect(await app.services.db.charge.count()).toBe(1);
  });

  test("says that a duplicate which waited for the first execution was coalesced into it", async () => {
    const order = await placeOrder();
    const held = gate();
    const charging = gate();
    provider.beforeCharge = () => {
      charging.open();
      return held.opened;
    };
    // A request that has entered run() while the first executes has joined it: run() shares the
    // execution in flight before its first await.
    const runs = vi.spyOn(app.services.runOnce, "run");
    const body = {
      orderId: order.id,
      amountCents: 1200,
      idempotencyKey: order.paymentKey,
      paymentMethodId: "pm_card_visa",
    };
    const first = post("payments.charge", body);
    await charging.opened;
    const duplicate = post("payments.charge", body);
    await expect.poll(() => runs.mock.calls.length).toBe(2);
    held.open();

    const [a, b] = await Promise.all([first, duplicate]);
    expect(a.headers.get("Idempotency-Decision")).toBe("executed");
    expect(b.headers.get("Idempotency-Decision")).toBe("coalesced");
    expect(b.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await b.text()).toBe(await a.text());
  });

  test("answers a failure before commit with 503 and Retry-After, and the retry charges once", async () => {
    const order = await placeOrder();
    let failures = 1;
    provider.afterCharge = async () => {
      if (failures-- > 0) throw new Error("connection reset after the provider answered");
    };
    const body = {
      orderId: order.id,
      amountCents: 1200,
      idempotencyKey: order.paymentKey,
      paymentMethodId: "pm_card_visa",
    };

    const failed = await post("payments.charge", body);
    expect(failed.status).toBe(503);
    expect(failed.headers.get("Retry-After")).toBe("1");
    expect(JSON.stringify(await failed.json())).not.toContain("connection reset after the provider answered");

    expect((await post("payments.charge", body)).status).toBe(200);
    expect(await app.services.db.charge.count()).toBe(1);
  });
});
