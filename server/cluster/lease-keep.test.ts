import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import { newSignedSession } from "~/testing/signed-session";
import { apiClient } from "~/testing/api-client";
import { chargeBody, placeOrderWith } from "~/testing/lab-orders";
import { clusterTest } from "~/testing/fixtures";

/**
 * A card network slower than the lease: the owner is alive the whole time,
 * so its heartbeat keeps the key, and a duplicate on another instance waits
 * for its answer instead of taking the key over and charging again.
 */
const LEASE_MS = 2_000;
const CARD_MS = 5_000;

const test = clusterTest({
  count: 2,
  // The duplicate's wait outlasts the slow card, so it gets the owner's answer rather than a 409.
  env: { LAB_ENABLED: "1", IDEMPOTENCY_LEASE_MS: String(LEASE_MS), IDEMPOTENCY_WAIT_MS: "15000" },
});

test("keeps the key of a charge slower than its lease: one authorization, one execution, no lease lost", async ({
  running: { cluster, db, providerDb },
}) => {
  const { cookie: session } = await newSignedSession(db);
  const [a, b] = cluster.instances.map((instance) => apiClient(instance.url, session));
  const order = await placeOrderWith(a!, { provider: { delayMs: CARD_MS } });

  const first = a!.post("payments.charge", chargeBody(order));
  // The duplicate arrives once the owner is at the card, and keeps arriving past a lease.
  await sleep(LEASE_MS / 2);
  const duplicate = b!.post("payments.charge", chargeBody(order));
  const [owner, waiter] = await Promise.all([first, duplicate]);

  expect(owner.text).not.toContain("IDEMPOTENCY_LEASE_LOST");
  expect(owner.status).toBe(200);
  expect(waiter.status).toBe(200);
  expect(waiter.text).toBe(owner.text);
  expect(owner.headers.get("Idempotency-Decision")).toBe("executed");
  expect(await db.charge.count({ where: { orderId: order.id } })).toBe(1);
  // One authorization, in the provider's records and by its own count.
  expect(await providerDb.charge.count({ where: { orderRef: order.id } })).toBe(1);
  const atProvider = await (await fetch(`${cluster.provider.url}/metrics`)).text();
  expect(/^provider_charge_executions_total (\d+)$/m.exec(atProvider)?.[1]).toBe("1");
  // The shop's handler ran once over both instances: no takeover, no fenced owner.
  const outcomes = await Promise.all(cluster.instances.map((instance) => chargeOutcomes(instance.url)));
  const total = (outcome: string) => outcomes.reduce((sum, counts) => sum + (counts[outcome] ?? 0), 0);
  expect(total("executed") + total("taken_over")).toBe(1);
  expect(total("lease_lost")).toBe(0);
}, 60_000);

/** How an instance's payments.charge requests ended, by its own metrics. */
async function chargeOutcomes(baseUrl: string): Promise<Record<string, number>> {
  const metrics = await (await fetch(`${baseUrl}/api/metrics`)).text();
  const lines = metrics.matchAll(
    /^idempotency_requests_total\{procedure="payments\.charge",outcome="(\w+)"\} (\d+)$/gm,
  );
  return Object.fromEntries([...lines].map(([, outcome, count]) => [outcome, Number(count)]));
}
