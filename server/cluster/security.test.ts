import { expect } from "vitest";
import type { Db } from "../db/client";
import { newSignedSession } from "~/testing/signed-session";
import { apiClient, dataOf } from "~/testing/api-client";
import type { Cluster } from "./instances";
import { clusterTest } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";

const test = clusterTest({ count: 1 });

/** The session cookie, and what an error may say, against `next start` (production). */
let db: Db;
let cluster: Cluster;
let baseUrl: string;

test.beforeAll(async ({ running }) => {
  ({ cluster, db } = running);
  baseUrl = cluster.instances[0]!.url;
});

test("sets an opaque session cookie: HttpOnly, SameSite=Lax, Secure in production", async () => {
  const response = await fetch(`${baseUrl}/api/trpc/catalog.list`);
  const cookie = response.headers.get("set-cookie") ?? "";
  expect(cookie).toMatch(/^checkout_session=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43};/);
  expect(cookie).toMatch(/; HttpOnly/i);
  expect(cookie).toMatch(/; SameSite=lax/i);
  expect(cookie).toMatch(/; Secure/i);
  expect(cookie).toMatch(/; Path=\//i);
});

test("replaces a cookie that is not a session id with a new session", async () => {
  const response = await fetch(`${baseUrl}/api/trpc/orders.list`, {
    headers: { cookie: "checkout_session=admin" },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("set-cookie")).toMatch(
    /^checkout_session=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43};/,
  );
  expect(dataOf(await toApiResponse(response))).toEqual([]);
});

test("shows another session nothing of an order, its charge or its stored result", async () => {
  const owner = apiClient(baseUrl, (await newSignedSession(db)).cookie);
  const order = dataOf<{ id: string; totalCents: number; paymentKey: string }>(
    await owner.post("orders.place", { submissionKey: "form", items: [{ sku: "backpack", quantity: 1 }] }),
  );
  const body = chargeBody(order);
  const paid = await owner.post("payments.charge", body);
  expect(paid.status).toBe(200);

  // A caller who changed its cookie to another (valid) session id.
  const other = apiClient(baseUrl, (await newSignedSession(db)).cookie);
  expect((await other.get("orders.get", { orderId: order.id })).status).toBe(404);
  expect(dataOf(await other.get("orders.list"))).toEqual([]);
  expect(dataOf(await other.get("ledger.entries"))).toEqual([]);
  const replayAttempt = await other.post("payments.charge", body);
  expect(replayAttempt.status).toBe(404);
  expect(replayAttempt.text).not.toContain(dataOf<{ chargeId: string }>(paid).chargeId);
  expect(await db.charge.count({ where: { orderId: order.id } })).toBe(1);
});

test("answers a forced internal error with a fixed message: no SQL, no stack, no table names", async () => {
  const client = apiClient(baseUrl, (await newSignedSession(db)).cookie);
  const keysBefore = await db.idempotencyKey.count();
  // Break the database under the running server.
  await db.$executeRawUnsafe('ALTER TABLE "Product" RENAME TO "ProductGone"');

  const query = await client.get("catalog.list");
  expect(query.status).toBe(500);
  expect((query.json as { error: { message: string } }).error.message).toBe("Internal server error.");

  const mutation = await client.post("orders.place", {
    submissionKey: "form",
    items: [{ sku: "notebook", quantity: 1 }],
  });
  expect(mutation.status).toBe(503);
  expect(mutation.headers.get("Retry-After")).toBe("1");

  for (const response of [query, mutation]) {
    expect(response.text).not.toMatch(
      /Product|SELECT|FROM|prisma|stack|\n\s+at |node_modules|sqlite|postgres/i,
    );
  }
  // The failed placement released its key: nothing half-written.
  expect(await db.idempotencyKey.count()).toBe(keysBefore);
});

async function toApiResponse(response: Response) {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) as unknown };
}
