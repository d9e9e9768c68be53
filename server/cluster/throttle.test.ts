import { createTRPCClient } from "@trpc/client";
import { describe, expect } from "vitest";
import { createLinks } from "~/app/_trpc/links";
import type { Db } from "../db/client";
import { apiClient, dataOf } from "~/testing/api-client";
import type { ApiResponse } from "~/testing/api-client";
import { newSignedSession } from "~/testing/signed-session";
import type { AppRouter } from "../trpc/routers/_app";
import type { Cluster } from "./instances";
import { clusterTest } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import { TEST_REDIS_URL, uniqueRedisKeyPrefix } from "~/testing/test-redis";

/**
 * The mutation limits, over HTTP against two `next start` instances counting
 * in one Redis: the count is shared, a refusal is a 429 with Retry-After that
 * stores nothing, and the app's own retrying client waits it out and charges
 * once. Each test sends from an address of its own (X-Forwarded-For, as a
 * proxy in front would set it), so that the tests do not share a limit.
 */
const PER_SESSION = 5;
const PER_ADDRESS = 8;
const WINDOW_SECONDS = 6;

let db: Db;
let cluster: Cluster;
let urls: string[];

const test = clusterTest({
  count: 2,
  env: {
    RATE_LIMIT_SESSION_MUTATIONS: String(PER_SESSION),
    RATE_LIMIT_ADDRESS_MUTATIONS: String(PER_ADDRESS),
    RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: uniqueRedisKeyPrefix(),
  },
});

test.beforeAll(async ({ running }) => {
  ({ cluster, db } = running);
  urls = cluster.instances.map((instance) => instance.url);
});

let addresses = 0;
const newAddress = () => ({ "X-Forwarded-For": `203.0.113.${++addresses}` }) as const;

/** orders.place on instance `i % 2`, so that consecutive calls alternate between the instances. */
function place(
  cookie: string,
  address: Record<string, string>,
  i: number,
  submissionKey = crypto.randomUUID(),
) {
  return apiClient(urls[i % 2]!, cookie).post(
    "orders.place",
    { submissionKey, items: [{ sku: "notebook", quantity: 1 }] },
    address,
  );
}

function expectRateLimited(response: ApiResponse) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect((response.json as { error: { data: { reason: string } } }).error.data.reason).toBe("RATE_LIMITED");
}

describe("limits", () => {
  test(`refuses a session's mutation number ${PER_SESSION + 1} in a window, whichever instance it reaches; queries go on`, async () => {
    const { cookie } = await newSignedSession(db);
    const address = newAddress();
    for (let i = 0; i < PER_SESSION; i++) expect((await place(cookie, address, i)).status).toBe(200);

    const refusedKey = crypto.randomUUID();
    expectRateLimited(await place(cookie, address, PER_SESSION, refusedKey));
    expectRateLimited(await place(cookie, address, PER_SESSION + 1));
    expect((await apiClient(urls[0]!, cookie).get("orders.list")).status).toBe(200);
    // The refusal came before run-once: no key was claimed, nothing was stored.
    expect(await db.idempotencyKey.count({ where: { key: refusedKey } })).toBe(0);
  });

  test(`refuses an address's mutation number ${PER_ADDRESS + 1} in a window, whatever its sessions`, async () => {
    const address = newAddress();
    for (let i = 0; i < PER_ADDRESS; i++) {
      expect((await place((await newSignedSession(db)).cookie, address, i)).status).toBe(200);
    }
    expectRateLimited(await place((await newSignedSession(db)).cookie, address, PER_ADDRESS));
    // Another address, as behind the same proxy, is not held back.
    expect((await place((await newSignedSession(db)).cookie, newAddress(), 0)).status).toBe(200);
  });

  test("runs the refused request, after Retry-After, as its first attempt would have run", async () => {
    const { cookie } = await newSignedSession(db);
    const address = newAddress();
    for (let i = 0; i < PER_SESSION; i++) await place(cookie, address, i);
    const refused = await place(cookie, address, 0, "placed-after-waiting");
    expectRateLimited(refused);

    await new Promise((resolve) => setTimeout(resolve, Number(refused.headers.get("Retry-After")) * 1000));
    const placed = await place(cookie, address, 1, "placed-after-waiting");
    expect(placed.status).toBe(200);
    expect(placed.headers.get("Idempotency-Decision")).toBe("executed");
  }, 30_000);
});

describe("the app's retrying client", () => {
  test("waits out a 429's Retry-After, retries with the same key, and charges once", async () => {
    const { cookie } = await newSignedSession(db);
    const address = newAddress();
    const order = dataOf<{ id: string; totalCents: number; paymentKey: string }>(
      await place(cookie, address, 0),
    );
    // Spends the session's window but one mutation.
    for (let i = 1; i < PER_SESSION - 1; i++) await place(cookie, address, i);

    const sent: Array<{ status: number; retryAfter: number; at: number; body: string }> = [];
    const transport: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("cookie", cookie);
      headers.set("X-Forwarded-For", address["X-Forwarded-For"]);
      const response = await fetch(input, { ...init, headers });
      const retryAfter = Number(response.headers.get("Retry-After"));
      sent.push({ status: response.status, retryAfter, at: Date.now(), body: String(init?.body) });
      return response;
    };
    const client = createTRPCClient<AppRouter>({
      links: createLinks({ url: `${urls[1]}/api/trpc`, fetch: transport }),
    });

    // A double-click: two charges with the order's key, and one mutation left in the window.
    const charge = chargeBody(order);
    const [first, second] = await Promise.all([
      client.payments.charge.mutate(charge),
      client.payments.charge.mutate(charge),
    ]);

    expect(second).toEqual(first);
    expect(await db.charge.count({ where: { orderId: order.id } })).toBe(1);
    const throttled = sent.filter((request) => request.status === 429);
    expect(throttled).toHaveLength(1);
    expect(sent.map((request) => request.status).sort()).toEqual([200, 200, 429]);
    expect(new Set(sent.map((request) => request.body)).size).toBe(1);
    // The retry waited for Retry-After, not a backoff of a few hundred milliseconds.
    expect(sent.at(-1)!.at - throttled[0]!.at).toBeGreaterThanOrEqual(throttled[0]!.retryAfter * 1000);
  }, 30_000);
});
