import { expect } from "vitest";
import { newSignedSession } from "~/testing/signed-session";
import { apiClient } from "~/testing/api-client";
import { chargeBody, placeOrderWith } from "~/testing/lab-orders";
import { clusterTest } from "~/testing/fixtures";

/**
 * Real `next start` processes on one database: three on PostgreSQL (the
 * shared store), two on one SQLite file. Duplicates spread over them must
 * still charge once.
 */
const provider = process.env.TEST_DATABASE === "postgresql" ? "postgresql" : "sqlite";
const count = provider === "postgresql" ? 3 : 2;
const duplicates = provider === "postgresql" ? 50 : 20;

const test = clusterTest({ count, env: { LAB_ENABLED: "1" } });

test(`charges once for ${duplicates} concurrent duplicates spread round-robin over ${count} instances`, async ({
  running: { cluster, db, providerDb },
}) => {
  const { cookie: session } = await newSignedSession(db);
  const clients = cluster.instances.map((instance) => apiClient(instance.url, session));
  // A one-second card network keeps the first charge in flight while all duplicates arrive.
  const order = await placeOrderWith(clients[0]!, { provider: { delayMs: 1_000 } });

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
  // The instances share one provider, which executed one charge for the storm (its own count).
  expect(await providerDb.charge.count({ where: { orderRef: order.id } })).toBe(1);
  const metrics = await (await fetch(`${cluster.provider.url}/metrics`)).text();
  expect(/^provider_charge_executions_total (\d+)$/m.exec(metrics)?.[1]).toBe("1");
  // Each instance writes its replay counts in a batch once quiet.
  await expect
    .poll(
      async () =>
        (await db.idempotencyKey.findFirstOrThrow({ where: { key: order.paymentKey } })).replayCount,
      { timeout: 10_000 },
    )
    .toBe(duplicates - 1);
});
