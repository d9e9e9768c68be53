import { describe, expect } from "vitest";
import type { Db } from "../db/client";
import { SESSION_COOKIE, newSessionId, signSessionId } from "../session";
import { apiClient, dataOf } from "~/testing/api-client";
import { newSignedSession } from "~/testing/signed-session";
import { clusterTest } from "~/testing/fixtures";

/**
 * Session cookies against two `next start` instances on one database: only
 * ids the server signed are accepted, by one rule for pages and API alike,
 * every instance accepts the others' cookies, and no response that sets a
 * cookie or carries a session's data may be kept by a shared cache.
 */
let db: Db;
let a: string;
let b: string;

const test = clusterTest({ count: 2 });

test.beforeAll(async ({ running }) => {
  ({ db } = running);
  [a, b] = running.urls as [string, string];
});

const cookieFrom = (response: Response) => response.headers.get("set-cookie")?.split(";")[0] ?? null;

async function placeOrder(baseUrl: string, cookie: string): Promise<string> {
  const response = await apiClient(baseUrl, cookie).post("orders.place", {
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  });
  return dataOf<{ id: string }>(response).id;
}

const orderIdsOf = async (baseUrl: string, cookie: string) =>
  dataOf<Array<{ id: string }>>(await apiClient(baseUrl, cookie).get("orders.list")).map((order) => order.id);

describe("caches", () => {
  test.each(["/", "/orders", "/ledger", "/api/trpc/catalog.list"])(
    "%s, on a first visit, sets the cookie and forbids shared caches to keep the response",
    async (path) => {
      const response = await fetch(`${a}${path}`);
      expect(response.status).toBe(200);
      expect(cookieFrom(response)).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
      expect(response.headers.get("cache-control")).toBe("private, no-store");
    },
  );

  test("keeps every API answer private, with or without a new cookie, success or error", async () => {
    const { cookie } = await newSignedSession(db);
    const orderId = await placeOrder(a, cookie);
    const api = apiClient(a, cookie);
    const answers = await Promise.all([
      api.get("orders.get", { orderId }),
      api.get("ledger.entries"),
      api.get("orders.get", { orderId: "ord_unknown" }),
      api.post("payments.charge", {
        orderId,
        amountCents: 1,
        idempotencyKey: "k",
        paymentMethodId: "pm_card_visa",
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404, 400]);
    for (const answer of answers) {
      expect(answer.headers.get("set-cookie")).toBeNull();
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
    }
  });
});

describe("session ids", () => {
  test("issues ids that every instance on the database accepts", async () => {
    const issued = cookieFrom(await fetch(`${a}/`));
    expect(issued).not.toBeNull();
    const orderId = await placeOrder(b, issued!);
    expect(await orderIdsOf(a, issued!)).toEqual([orderId]);
  });

  test.each([
    ["a well-formed id the client picked", () => `${SESSION_COOKIE}=${newSessionId()}`],
    [
      "an id signed with another key",
      () => `${SESSION_COOKIE}=${signSessionId(newSessionId(), "x".repeat(32))}`,
    ],
    ["a signature lifted onto another id", () => `${SESSION_COOKIE}=${newSessionId()}.${"A".repeat(43)}`],
  ])("refuses %s and issues a new session, on pages and API alike", async (_, cookie) => {
    for (const path of ["/orders", "/api/trpc/orders.list"]) {
      const response = await fetch(`${a}${path}`, { headers: { cookie: cookie() } });
      expect(response.status).toBe(200);
      const issued = cookieFrom(response);
      expect(issued).toMatch(/^checkout_session=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
      expect(issued).not.toBe(cookie());
    }
  });

  test("does not let a client choose the id its orders are stored under", async () => {
    const chosen = newSessionId();
    await placeOrder(a, `${SESSION_COOKIE}=${chosen}`);
    expect(await db.order.count({ where: { sessionId: chosen } })).toBe(0);
  });
});

describe("duplicate cookies", () => {
  test.each([
    ["junk first", (valid: string) => `${SESSION_COOKIE}=junk; ${valid}`],
    ["junk last", (valid: string) => `${valid}; ${SESSION_COOKIE}=junk`],
    ["a forged id first", (valid: string) => `${SESSION_COOKIE}=${newSessionId()}; ${valid}`],
  ])("with %s, the signed one is the session for pages and API alike", async (_, header) => {
    const { cookie } = await newSignedSession(db);
    const orderId = await placeOrder(a, cookie);

    const page = await fetch(`${a}/orders`, { headers: { cookie: header(cookie) } });
    expect(page.status).toBe(200);
    expect(page.headers.get("set-cookie")).toBeNull();
    expect(await orderIdsOf(a, header(cookie))).toEqual([orderId]);
    const paid = await apiClient(a, header(cookie)).post("orders.place", {
      submissionKey: crypto.randomUUID(),
      items: [{ sku: "backpack", quantity: 1 }],
    });
    expect(paid.status).toBe(200);
    expect(paid.headers.get("set-cookie")).toBeNull();
  });

  test("with none signed, issues one new session that the same request already uses", async () => {
    const response = await fetch(`${a}/api/trpc/orders.place`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie: `${SESSION_COOKIE}=junk; ${SESSION_COOKIE}=${newSessionId()}`,
      },
      body: JSON.stringify({ submissionKey: "k", items: [{ sku: "notebook", quantity: 1 }] }),
    });
    expect(response.status).toBe(200);
    const placed = (await response.json()) as { result: { data: { id: string } } };
    expect(await orderIdsOf(a, cookieFrom(response)!)).toEqual([placed.result.data.id]);
  });
});
