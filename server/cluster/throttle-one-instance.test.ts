import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import type { Db } from "../db/client";
import { apiClient, dataOf } from "~/testing/api-client";
import { newSignedSession } from "~/testing/signed-session";
import type { Cluster } from "./instances";
import { clusterTest } from "~/testing/fixtures";

/**
 * The mutation limits of one `next start` without Redis, the embedded
 * default: a storm of duplicates costs the database no statement each, and a
 * session's flood past its limit is still refused with 429. Each test sends
 * from an address of its own, so that the tests do not share a limit.
 */
const PER_SESSION = 120;
const STORM = 100;

let db: Db;
let cluster: Cluster;
let baseUrl: string;

const test = clusterTest({
  count: 1,
  env: {
    RATE_LIMIT_SESSION_MUTATIONS: String(PER_SESSION),
    RATE_LIMIT_ADDRESS_MUTATIONS: String(10 * PER_SESSION),
    RATE_LIMIT_WINDOW_SECONDS: "60",
    // As in production: no lab, whose aged keys make every duplicate read the table.
    LAB_ENABLED: "0",
    // No background job's statements in the counts.
    PAYMENT_COMPLETER_INTERVAL_MS: "3600000",
    IDEMPOTENCY_SWEEP_INTERVAL_MS: "3600000",
  },
});

test.beforeAll(async ({ running }) => {
  ({ cluster, db } = running);
  baseUrl = cluster.instances[0]!.url;
});

let addresses = 0;
const newAddress = () => ({ "X-Forwarded-For": `198.51.100.${++addresses}` }) as const;

/** A session that has paid an order, and a storm of that charge sent again, all at once. */
async function paidOrder() {
  const { cookie } = await newSignedSession(db);
  const address = newAddress();
  const client = apiClient(baseUrl, cookie);
  const order = dataOf<{ id: string; totalCents: number; paymentKey: string }>(
    await client.post(
      "orders.place",
      { submissionKey: crypto.randomUUID(), items: [{ sku: "notebook", quantity: 1 }] },
      address,
    ),
  );
  const charge = {
    orderId: order.id,
    amountCents: order.totalCents,
    idempotencyKey: order.paymentKey,
    paymentMethodId: "pm_card_visa",
  };
  expect((await client.post("payments.charge", charge, address)).status).toBe(200);
  return {
    storm: (size: number) =>
      Promise.all(Array.from({ length: size }, () => client.post("payments.charge", charge, address))),
  };
}

/** The instance's db_queries_total: every statement it sent to the database. */
async function statements(): Promise<number> {
  const text = await (await fetch(`${baseUrl}/api/metrics`)).text();
  return Number(/^db_queries_total (\d+)$/m.exec(text)![1]);
}

test(`answers a storm of ${STORM} duplicates of a completed key without a statement each`, async () => {
  const { storm } = await paidOrder();
  // The account of runs is written once quiet for 200 ms: the payment's before, the storm's batch after.
  await sleep(1_000);
  const before = await statements();
  const answers = await storm(STORM);

  expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: STORM }, () => 200));
  await sleep(1_000);
  // That batch only: a throttle counting in the database, or a write per request, would add one or more per duplicate.
  expect((await statements()) - before).toBeLessThan(STORM / 10);
});

test(`refuses a session's flood past ${PER_SESSION} mutations with 429 and Retry-After`, async () => {
  const { storm } = await paidOrder();
  const answers = await storm(PER_SESSION);

  const refused = answers.filter((answer) => answer.status === 429);
  // Two of the window's mutations went to placing and paying the order.
  expect(refused).toHaveLength(2);
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(PER_SESSION - 2);
  for (const answer of refused) {
    expect(Number(answer.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect((answer.json as { error: { data: { reason: string } } }).error.data.reason).toBe("RATE_LIMITED");
  }
});
