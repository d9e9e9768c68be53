import { expect } from "vitest";
import type { Db } from "../db/client";
import { newSignedSession } from "~/testing/signed-session";
import { MAX_BATCH_SIZE } from "../trpc/http-handler";
import { clusterTest } from "~/testing/fixtures";

/**
 * One request that batches many calls, against `next start` on a quiet
 * machine: a batch up to the cap runs every call without a 5xx; a larger one
 * is refused whole, before any call runs.
 */
let db: Db;
let baseUrl: string;

const test = clusterTest({ count: 1 });

test.beforeAll(async ({ running }) => {
  ({ db } = running);
  [baseUrl] = running.urls as [string];
});

/** `size` orders.place calls in one batched POST, each with its own submission key. */
async function placeInOneBatch(size: number) {
  const { cookie } = await newSignedSession(db);
  const calls = Array.from({ length: size }, () => ({
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  }));
  const response = await fetch(`${baseUrl}/api/trpc/${calls.map(() => "orders.place").join(",")}?batch=1`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(Object.fromEntries(calls.map((call, index) => [index, call]))),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

test(`runs a batch of ${MAX_BATCH_SIZE} orders.place calls, each answered 200`, async () => {
  const before = await db.order.count();
  const { status, body } = await placeInOneBatch(MAX_BATCH_SIZE);

  const statuses = (body as Array<{ error?: { data: { httpStatus: number } } }>).map(
    (call) => call.error?.data.httpStatus ?? 200,
  );
  expect(statuses).toEqual(Array.from({ length: MAX_BATCH_SIZE }, () => 200));
  expect(status).toBe(200);
  expect(await db.order.count()).toBe(before + MAX_BATCH_SIZE);
});

test(`refuses a batch of ${MAX_BATCH_SIZE + 1} calls with 400, and runs none of them`, async () => {
  const [orders, keys] = await Promise.all([db.order.count(), db.idempotencyKey.count()]);
  const { status, body } = await placeInOneBatch(MAX_BATCH_SIZE + 1);

  expect(status).toBe(400);
  expect(JSON.stringify(body)).toMatch(/Batch call exceeds maximum size/);
  expect(await Promise.all([db.order.count(), db.idempotencyKey.count()])).toEqual([orders, keys]);
});
