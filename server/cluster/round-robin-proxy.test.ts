import { expect } from "vitest";
import { apiClient } from "~/testing/api-client";
import { clusterTest } from "~/testing/fixtures";
import { chargeBody, placeOrderWith } from "~/testing/lab-orders";
import { newSignedSession } from "~/testing/signed-session";
import type { RoundRobinProxy } from "./round-robin-proxy";
import { SERVED_BY_HEADER } from "./proxy-headers";
import { startRoundRobinProxy } from "./round-robin-proxy";

/**
 * Two `next start` instances behind the demo's proxy, one address: a retry
 * can land on the other instance, and run-once holds across them.
 */
const test = clusterTest({ count: 2, env: { LAB_ENABLED: "1" } });

let proxy: RoundRobinProxy;
test.beforeAll(async ({ running: { cluster } }) => {
  proxy = await startRoundRobinProxy({ targets: cluster.instances.map((instance) => instance.url), port: 0 });
});
test.afterAll(async () => {
  await proxy.close();
});

test("sends each request to the next instance in turn, and says which one answered", async ({
  running: { cluster },
}) => {
  const servedBy: Array<string | null> = [];
  for (let i = 0; i < 4; i++) {
    const response = await fetch(`${proxy.url}/api/trpc/catalog.list`);
    expect(response.status).toBe(200);
    servedBy.push(response.headers.get(SERVED_BY_HEADER));
  }
  const [first, second] = cluster.instances.map((instance) => instance.url);
  expect(new Set(servedBy)).toEqual(new Set([first, second]));
  expect(servedBy[0]).not.toBe(servedBy[1]);
  expect(servedBy[2]).toBe(servedBy[0]);
});

test("a reply lost on one instance breaks the client's connection, and the retry, on the other instance, replays the one charge", async ({
  running: { db, providerDb },
}) => {
  const { cookie } = await newSignedSession(db);
  const client = apiClient(proxy.url, cookie);
  const order = await placeOrderWith(client, { shop: { dropReplies: 1 } });

  const lost = await fetch(`${proxy.url}/api/trpc/payments.charge`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(chargeBody(order)),
  });
  await expect(lost.text()).rejects.toThrow();
  const retry = await client.post("payments.charge", chargeBody(order));

  expect(retry.status).toBe(200);
  expect(retry.headers.get(SERVED_BY_HEADER)).not.toBe(lost.headers.get(SERVED_BY_HEADER));
  expect(retry.headers.get("Idempotency-Decision")).toBe("replayed");
  expect(await db.charge.count({ where: { orderId: order.id } })).toBe(1);
  expect(await providerDb.charge.count({ where: { orderRef: order.id } })).toBe(1);
});

test("an instance that is down answers 502 once and leaves the rotation, so retries land on the one that is up", async ({
  running: { cluster },
}) => {
  await cluster.crash(1);
  const statuses: number[] = [];
  const servedBy = new Set<string | null>();
  for (let i = 0; i < 6; i++) {
    const response = await fetch(`${proxy.url}/api/trpc/catalog.list`);
    statuses.push(response.status);
    if (response.ok) servedBy.add(response.headers.get(SERVED_BY_HEADER));
  }
  expect(statuses.filter((status) => status === 502).length).toBeLessThanOrEqual(1);
  expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(5);
  expect([...servedBy]).toEqual([cluster.instances[0]!.url]);
});
