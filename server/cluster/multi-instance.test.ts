import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "../db/client";
import type { Db } from "../db/client";
import { newSignedSession } from "../testing/signed-session";
import { apiClient } from "../testing/api-client";
import { createTestDatabase } from "../testing/test-database";
import type { TestDatabase } from "../testing/test-database";
import { chargeBody, placeOrderWith } from "../testing/lab-orders";
import { startInstances } from "./instances";
import type { Cluster } from "./instances";

/**
 * Real `next start` processes on one database: three on PostgreSQL (the
 * shared store), two on one SQLite file. Duplicates spread over them must
 * still charge once.
 */
let database: TestDatabase;
let db: Db;
let cluster: Cluster;
const provider = process.env.TEST_DATABASE === "postgresql" ? "postgresql" : "sqlite";
const count = provider === "postgresql" ? 3 : 2;
const duplicates = provider === "postgresql" ? 50 : 20;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url);
  cluster = await startInstances({
    databaseUrl: database.url,
    count,
    basePort: provider === "postgresql" ? 3201 : 3221,
    env: { LAB_ENABLED: "1" },
  });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  await db?.$disconnect();
  await database?.drop();
});

it(`charges once for ${duplicates} concurrent duplicates spread round-robin over ${count} instances`, async () => {
  const { cookie } = await newSignedSession(db);
  const clients = cluster.instances.map((instance) => apiClient(instance.url, cookie));
  // A one-second card network keeps the first charge in flight while all duplicates arrive.
  const order = await placeOrderWith(clients[0]!, { ledgerDelayMs: 1_000 });

  const responses = await Promise.all(
    Array.from({ length: duplicates }, (_, i) =>
      clients[i % count]!.post("payments.charge", chargeBody(order)),
    ),
  );

  // Every duplicate waited for the one execution (well within the 5 s wait bound) and got its result.
  expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
  expect(new Set(responses.map((response) => response.text)).size).toBe(1);
  expect(responses.filter((response) => response.headers.get("Idempotent-Replayed") === "true")).toHaveLength(
    duplicates - 1,
  );
  expect(await db.charge.count({ where: { orderId: order.id } })).toBe(1);
  // Each instance writes its replay counts in batches, within 5 s.
  await expect
    .poll(
      async () =>
        (await db.idempotencyKey.findFirstOrThrow({ where: { key: order.paymentKey } })).replayCount,
      { timeout: 10_000 },
    )
    .toBe(duplicates - 1);
});
