import { expect } from "vitest";
import { apiClient } from "~/testing/api-client";
import { clusterTest } from "~/testing/fixtures";
import type { ClusterFixture } from "~/testing/fixtures";
import { chargeBody, placeOrderWith } from "~/testing/lab-orders";
import { newSignedSession } from "~/testing/signed-session";
import type { RoundRobinProxy } from "./round-robin-proxy";
import { SERVED_BY_HEADER } from "./proxy-headers";
import { startRoundRobinProxy } from "./round-robin-proxy";

/**
 * The guide's pitfall "in-memory stores behind a load balancer", for real:
 * two `next start` instances behind the demo's proxy, one address, and the
 * lab's pitfall charge with its keys in each instance's memory. A reply is
 * lost on one instance; the retry lands on the other.
 */
const test = clusterTest({ count: 2, env: { LAB_ENABLED: "1" } });

let proxy: RoundRobinProxy;
test.beforeAll(async ({ running: { cluster } }) => {
  proxy = await startRoundRobinProxy({ targets: cluster.instances.map((instance) => instance.url), port: 0 });
});
test.afterAll(async () => {
  await proxy.close();
});

/** Pays an order whose first reply is lost, then retries with the same key through the proxy. */
async function payLosingTheFirstReply(running: ClusterFixture, brokenRule: "memory-store" | null) {
  const { cookie } = await newSignedSession(running.db);
  const client = apiClient(proxy.url, cookie);
  const order = await placeOrderWith(client, { shop: { pitfallMode: true, brokenRule, dropReplies: 1 } });
  const lost = await fetch(`${proxy.url}/api/trpc/lab.pitfallCharge`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(chargeBody(order)),
  });
  await expect(lost.text()).rejects.toThrow();
  const retry = await client.post("lab.pitfallCharge", chargeBody(order));
  expect(retry.status).toBe(200);
  expect(retry.headers.get(SERVED_BY_HEADER)).not.toBe(lost.headers.get(SERVED_BY_HEADER));
  return {
    decision: retry.headers.get("Idempotency-Decision"),
    charges: await running.db.charge.count({ where: { orderId: order.id } }),
    providerCharges: await running.providerDb.charge.count({ where: { orderRef: order.id } }),
  };
}

test("keys in each instance's memory: the retry on the other instance executes again, and charges twice", async ({
  running,
}) => {
  expect(await payLosingTheFirstReply(running, "memory-store")).toEqual({
    decision: "executed",
    charges: 2,
    providerCharges: 2,
  });
});

test("keys in the shared store: the retry on the other instance replays the one charge", async ({
  running,
}) => {
  expect(await payLosingTheFirstReply(running, null)).toEqual({
    decision: "replayed",
    charges: 1,
    providerCharges: 1,
  });
});
