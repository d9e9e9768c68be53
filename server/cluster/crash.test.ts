import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "../db/client";
import type { Db } from "../db/client";
import { newSignedSession } from "../testing/signed-session";
import { apiClient, dataOf } from "../testing/api-client";
import { chargeBody, placeOrderWith } from "../testing/lab-orders";
import { createTestDatabase } from "../testing/test-database";
import type { TestDatabase } from "../testing/test-database";
import { startInstances } from "./instances";
import type { Cluster } from "./instances";

/**
 * Instances killed with SIGKILL in the middle of a charge: no cleanup, no
 * reply, a transaction left open. The other instance must neither charge
 * twice nor lose the charge.
 */
const LEASE_MS = 3_000;
const WAIT_MS = 1_000;

let database: TestDatabase;
let db: Db;
let cluster: Cluster;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url);
  cluster = await startInstances({
    databaseUrl: database.url,
    count: 3,
    basePort: process.env.TEST_DATABASE === "postgresql" ? 3211 : 3231,
    env: { LAB_ENABLED: "1", IDEMPOTENCY_LEASE_MS: String(LEASE_MS), IDEMPOTENCY_WAIT_MS: String(WAIT_MS) },
  });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  await db?.$disconnect();
  await database?.drop();
});

const keyOf = (paymentKey: string) => db.idempotencyKey.findFirst({ where: { key: paymentKey } });

it("takes over, after the lease, a charge whose instance died inside its transaction, and charges once", async () => {
  const { cookie } = await newSignedSession(db);
  const [a, b] = cluster.instances.map((instance) => apiClient(instance.url, cookie));
  // A writes the ledger row, then holds its transaction open for 4 s.
  const order = await placeOrderWith(a!, { stallsBeforeCommit: 1 });
  const lost = a!.post("payments.charge", chargeBody(order)).catch(() => "no reply");

  await expect.poll(async () => (await keyOf(order.paymentKey))?.state).toBe("IN_PROGRESS");
  await sleep(500); // authorization is instant: A is now inside its stalled transaction
  await cluster.crash(0);
  expect(await lost).toBe("no reply");
  const claim = await keyOf(order.paymentKey);
  expect(claim?.state).toBe("IN_PROGRESS");

  // Before the lease runs out, B waits (bounded) and then answers 409: nothing runs.
  const early = await b!.post("payments.charge", chargeBody(order));
  expect(early.status).toBe(409);
  expect(Number(early.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
  expect(Date.now()).toBeLessThan(claim!.lockedUntil.getTime());
  expect(await db.charge.count({ where: { orderId: order.id } })).toBe(0);

  // After it, B takes the key over and charges, once.
  await sleep(Math.max(0, claim!.lockedUntil.getTime() - Date.now()) + 100);
  const late = await b!.post("payments.charge", chargeBody(order));
  expect(late.status).toBe(200);
  const charges = await db.charge.findMany({ where: { orderId: order.id } });
  expect(charges.map((charge) => charge.id)).toEqual([dataOf<{ chargeId: string }>(late).chargeId]);
  expect((await keyOf(order.paymentKey))?.state).toBe("COMPLETED");

  // And the retry after that is a replay.
  const again = await b!.post("payments.charge", chargeBody(order));
  expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  expect(again.text).toBe(late.text);
}, 60_000);

it("replays, on another instance, a charge whose instance died after the commit and before the reply", async () => {
  const { cookie } = await newSignedSession(db);
  const [, b, c] = cluster.instances.map((instance) => apiClient(instance.url, cookie));
  // B commits the charge, then holds its reply (the lab loses it after 1.5 s).
  const order = await placeOrderWith(b!, { dropReplies: 1 });
  const lost = b!.post("payments.charge", chargeBody(order)).catch(() => "no reply");

  await expect.poll(async () => (await keyOf(order.paymentKey))?.state, { interval: 20 }).toBe("COMPLETED");
  // The lab spends its switch after the commit; crash only once B is holding the reply,
  // or the unspent switch would lose C's reply too.
  await expect
    .poll(async () => (await db.labSwitches.findUnique({ where: { orderId: order.id } }))?.dropReplies, {
      interval: 20,
    })
    .toBe(0);
  await cluster.crash(1);
  await lost;

  const retry = await c!.post("payments.charge", chargeBody(order));
  expect(retry.status).toBe(200);
  expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
  const charges = await db.charge.findMany({ where: { orderId: order.id } });
  expect(charges.map((charge) => charge.id)).toEqual([dataOf<{ chargeId: string }>(retry).chargeId]);
}, 60_000);
