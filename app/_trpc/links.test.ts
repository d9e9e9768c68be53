import { createTRPCClient } from "@trpc/client";
import { describe, expect, it } from "vitest";
import type { AppRouter } from "~/server/trpc/routers/_app";
import { TryLog } from "./try-log";
import { createLinks } from "./links";
import type { RetrySettings } from "retry-policy";

/**
 * The real links (splitLink, retryLink, loggerLink, httpLink) over a fake
 * transport that answers from a script, so that every branch of the retry
 * policy meets tRPC's own retry machinery.
 */
type Step = (init: RequestInit | undefined) => Promise<Response>;

const settings: RetrySettings = {
  maxTries: 4,
  baseDelayMs: 1,
  maxDelayMs: 5,
  tryTimeoutMs: 200,
  deadlineMs: 5_000,
};

const charge = {
  orderId: "ord_1",
  amountCents: 100,
  idempotencyKey: "pay_1",
  paymentMethodId: "pm_card_visa",
};
const success = { chargeId: "ch_1", orderId: "ord_1", amountCents: 100, status: "captured" };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Step {
  return async () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", ...headers },
    });
}
const ok = (headers: Record<string, string> = {}) => json(200, { result: { data: success } }, headers);
const failing = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { error: { message: code, code: -32000, data: { code, httpStatus: status } } }, headers);
const networkError: Step = async () => {
  throw new TypeError("fetch failed");
};
/** Never answers; gives up only when the try's signal aborts. */
const silence: Step = (init) =>
  new Promise((_, reject) => {
    init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
  });

function clientWith(script: Step[], overrides: Partial<RetrySettings> = {}) {
  const requests: Array<{ url: string; body: string; at: number }> = [];
  const transport: typeof fetch = async (input, init) => {
    requests.push({ url: String(input), body: String(init?.body), at: Date.now() });
    const step = script.shift();
    if (!step) throw new Error("the script ran out");
    return step(init);
  };
  const client = createTRPCClient<AppRouter>({
    links: createLinks({
      url: "http://shop.test/api/trpc",
      settings: { ...settings, ...overrides },
      fetch: transport,
    }),
  });
  return { client, requests };
}

describe("the client's retries", () => {
  it("retries unknown outcomes with the same body, hence the same key, until an answer", async () => {
    const { client, requests } = clientWith([
      networkError,
      silence,
      failing(503, "SERVICE_UNAVAILABLE"),
      ok(),
    ]);
    await expect(client.payments.charge.mutate(charge)).resolves.toEqual(success);
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    expect(JSON.parse(requests[0]?.body ?? "{}")).toMatchObject({ idempotencyKey: "pay_1" });
  });

  it.each([
    [400, "BAD_REQUEST"],
    [402, "PAYMENT_REQUIRED"],
    [404, "NOT_FOUND"],
    [422, "UNPROCESSABLE_CONTENT"],
  ])("does not retry %i: a final answer", async (status, code) => {
    const { client, requests } = clientWith([failing(status, code), ok()]);
    await expect(client.payments.charge.mutate(charge)).rejects.toMatchObject({ data: { code } });
    expect(requests).toHaveLength(1);
  });

  it("gives up at the try cap", async () => {
    const { client, requests } = clientWith([networkError, networkError, networkError, networkError, ok()]);
    await expect(client.payments.charge.mutate(charge)).rejects.toThrow();
    expect(requests).toHaveLength(4);
  });

  it("waits Retry-After before retrying a 409", async () => {
    const { client, requests } = clientWith([failing(409, "CONFLICT", { "Retry-After": "1" }), ok()]);
    await client.payments.charge.mutate(charge);
    const [first, second] = requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("waits Retry-After before retrying a 429, with the same body", async () => {
    const { client, requests } = clientWith([
      failing(429, "TOO_MANY_REQUESTS", { "Retry-After": "1" }),
      ok(),
    ]);
    await expect(client.payments.charge.mutate(charge)).resolves.toEqual(success);
    const [first, second] = requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(second?.body).toBe(first?.body);
  });

  it("an untimed operation waits past the per-try timeout for the server's answer: one request", async () => {
    const slowAnswer: Step = (init) =>
      new Promise((resolve, reject) => {
        setTimeout(() => resolve(ok()(init)), settings.tryTimeoutMs * 2);
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    const untimed = clientWith([slowAnswer]);
    await expect(
      untimed.client.payments.charge.mutate(charge, { context: { untimed: true } }),
    ).resolves.toEqual(success);
    expect(untimed.requests).toHaveLength(1);
    // The same answer, timed: the try is cut off at the timeout and sent again.
    const timed = clientWith([slowAnswer, ok()]);
    await expect(timed.client.payments.charge.mutate(charge)).resolves.toEqual(success);
    expect(timed.requests).toHaveLength(2);
  });

  it("starts no retry past the deadline", async () => {
    const { client, requests } = clientWith([failing(409, "CONFLICT", { "Retry-After": "2" }), ok()], {
      deadlineMs: 1_000,
    });
    await expect(client.payments.charge.mutate(charge)).rejects.toMatchObject({ data: { code: "CONFLICT" } });
    expect(requests).toHaveLength(1);
  });

  it("logs every try with the server's decision word", async () => {
    const { client } = clientWith([
      silence,
      failing(409, "CONFLICT", { "Retry-After": "0", "Idempotency-Decision": "executed" }),
      ok({ "Idempotency-Decision": "coalesced", "Idempotent-Replayed": "true" }),
    ]);
    const log = new TryLog();
    const tries = log.startRun().recorder("pay_1");
    await client.payments.charge.mutate(charge, { context: { tries } });
    expect(log.tries.map(({ outcome, decision }) => [outcome, decision])).toEqual([
      ["timed_out", null],
      ["conflict", "executed"],
      ["succeeded", "coalesced"],
    ]);
    expect(log.tries[2]).toMatchObject({ number: 3, run: 1, key: "pay_1", status: 200 });
  });

  it("records no decision for an answer without the header", async () => {
    const { client } = clientWith([ok()]);
    const log = new TryLog();
    await client.payments.charge.mutate(charge, { context: { tries: log.startRun().recorder("pay_1") } });
    expect(log.tries[0]).toMatchObject({ outcome: "succeeded", decision: null });
  });

  it("retries a read answered 503 with Retry-After as it retries a payment, after Retry-After", async () => {
    const { client, requests } = clientWith([
      failing(503, "SERVICE_UNAVAILABLE", { "Retry-After": "1" }),
      json(200, [{ result: { data: [] } }]),
    ]);
    await expect(client.catalog.list.query()).resolves.toEqual([]);
    expect(requests).toHaveLength(2);
    expect((requests[1]?.at ?? 0) - (requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_000);
  });

  it("retries only the call of a batch that was answered 503", async () => {
    const { client, requests } = clientWith([
      json(207, [
        { result: { data: [] } },
        { error: { message: "down", code: -32000, data: { code: "SERVICE_UNAVAILABLE", httpStatus: 503 } } },
      ]),
      json(200, [{ result: { data: [] } }]),
    ]);
    await expect(Promise.all([client.catalog.list.query(), client.ledger.entries.query()])).resolves.toEqual([
      [],
      [],
    ]);
    expect(requests.map((request) => new URL(request.url).pathname)).toEqual([
      "/api/trpc/catalog.list,ledger.entries",
      "/api/trpc/ledger.entries",
    ]);
  });

  it.each([
    ["a 500: a bug's answer is final", failing(500, "INTERNAL_SERVER_ERROR")],
    ["no answer: the query client's to retry, and the page's to show", networkError],
  ])("does not retry a read that got %s", async (_, step) => {
    const { client, requests } = clientWith([step]);
    await expect(client.catalog.list.query()).rejects.toThrow();
    expect(requests).toHaveLength(1);
  });

  it("sends queries in batches and does not retry them into a loop", async () => {
    const { client, requests } = clientWith([
      json(200, [{ result: { data: [] } }, { result: { data: [] } }]),
    ]);
    await Promise.all([client.catalog.list.query(), client.ledger.entries.query()]);
    expect(requests).toHaveLength(1);
  });
});
