import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "../db/client";
import type { Db } from "../db/client";
import { newSignedSession } from "../testing/signed-session";
import { createTestDatabase } from "../testing/test-database";
import type { TestDatabase } from "../testing/test-database";
import { MAX_BATCH_SIZE } from "../trpc/http-handler";
import { startInstances } from "./instances";
import type { Cluster } from "./instances";

/**
 * One request that batches many calls, against `next start` on a quiet
 * machine: a batch up to the cap runs every call without a 5xx; a larger one
 * is refused whole, before any call runs.
 */
let database: TestDatabase;
let db: Db;
let cluster: Cluster;
let baseUrl: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url);
  cluster = await startInstances({
    databaseUrl: database.url,
    count: 1,
    basePort: process.env.TEST_DATABASE === "postgresql" ? 3709 : 3708,
  });
  baseUrl = cluster.instances[0]!.url;
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  await db?.$disconnect();
  await database?.drop();
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

it(`runs a batch of ${MAX_BATCH_SIZE} orders.place calls, each answered 200`, async () => {
  const before = await db.order.count();
  const { status, body } = await placeInOneBatch(MAX_BATCH_SIZE);

  const statuses = (body as Array<{ error?: { data: { httpStatus: number } } }>).map(
    (call) => call.error?.data.httpStatus ?? 200,
  );
  expect(statuses).toEqual(Array.from({ length: MAX_BATCH_SIZE }, () => 200));
  expect(status).toBe(200);
  expect(await db.order.count()).toBe(before + MAX_BATCH_SIZE);
});

it(`refuses a batch of ${MAX_BATCH_SIZE + 1} calls with 400, and runs none of them`, async () => {
  const [orders, keys] = await Promise.all([db.order.count(), db.idempotencyKey.count()]);
  const { status, body } = await placeInOneBatch(MAX_BATCH_SIZE + 1);

  expect(status).toBe(400);
  expect(JSON.stringify(body)).toMatch(/Batch call exceeds maximum size/);
  expect(await Promise.all([db.order.count(), db.idempotencyKey.count()])).toEqual([orders, keys]);
});
