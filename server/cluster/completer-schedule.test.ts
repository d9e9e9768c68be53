import { expect } from "vitest";
import { newSignedSession } from "~/testing/signed-session";
import { apiClient } from "~/testing/api-client";
import { chargeBody, placeOrderWith } from "~/testing/lab-orders";
import { clusterTest } from "~/testing/fixtures";

const LEASE_MS = 3_000;
const INTERVAL_MS = 500;

const test = clusterTest({
  count: 2,
  env: {
    LAB_ENABLED: "1",
    IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
    IDEMPOTENCY_WAIT_MS: "1000",
    PAYMENT_COMPLETER_INTERVAL_MS: String(INTERVAL_MS),
  },
});

test("a running server finishes a stranded payment on its own completer schedule, with no retry from any client", async ({
  running: { cluster, db, providerDb },
}) => {
  const { cookie: session } = await newSignedSession(db);
  const [a, b] = cluster.instances.map((instance) => apiClient(instance.url, session));
  await b!.get("catalog.list"); // B's services, and its completer, start with its first API request
  // A gets the provider's charge, stalls before recording it, and is killed there; nobody retries.
  const order = await placeOrderWith(a!, { shop: { stallsBetweenHops: 1 } });
  void a!.post("payments.charge", chargeBody(order)).catch(() => "no reply");
  await expect
    .poll(() => providerDb.charge.count({ where: { orderRef: order.id } }), { interval: 20, timeout: 15_000 })
    .toBe(1);
  await cluster.crash(0);
  const crashedAt = Date.now();

  // B's completer records it once the attempt is due (a lease after the provider call) and A's lease is over.
  await expect
    .poll(() => db.charge.count({ where: { orderId: order.id } }), {
      interval: 50,
      timeout: 20_000,
    })
    .toBe(1);
  const finishedInMs = Date.now() - crashedAt;
  const [recorded] = await db.charge.findMany({ where: { orderId: order.id } });
  const atProvider = await providerDb.charge.findMany({ where: { orderRef: order.id } });
  expect(atProvider.map((charge) => charge.id)).toEqual([recorded!.id]);
  const attempt = await db.paymentAttempt.findUniqueOrThrow({ where: { key: order.paymentKey } });
  expect(attempt).toMatchObject({ status: "SUCCEEDED", settledBy: "completer" });
  console.log(`stranded payment finished by the completer ${finishedInMs} ms after the crash`);
}, 60_000);
