import { expect } from "vitest";
import { apiClient, dataOf } from "~/testing/api-client";
import { chargeBody, placeOrderWith } from "~/testing/lab-orders";
import { clusterTest } from "~/testing/fixtures";
import { newSignedSession } from "~/testing/signed-session";
import type { ServerAccount } from "~/app/_lib/server-account";

/**
 * The server's account across instances: two `next start` processes on one
 * database each name themselves in the record of the requests they answered,
 * so the order page draws one server lane per instance.
 */
const test = clusterTest({ count: 2, env: { LAB_ENABLED: "1" } });

test("names the instance that answered each request, and one of them executed", async ({
  running: { cluster, db },
}) => {
  const { cookie } = await newSignedSession(db);
  const clients = cluster.instances.map((instance) => apiClient(instance.url, cookie));
  const order = await placeOrderWith(clients[0]!, { provider: { delayMs: 500 } });

  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) => clients[i % 2]!.post("payments.charge", chargeBody(order))),
  );
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));

  // Each instance writes its records in a batch shortly after: on arrival, then completed in place.
  await expect
    .poll(
      async () =>
        dataOf<ServerAccount>(
          await clients[1]!.get("orders.serverAccount", { orderId: order.id }),
        ).requests.filter((attempt) => attempt.decision !== null).length,
      { timeout: 10_000 },
    )
    .toBe(6);
  const { requests: attempts } = dataOf<ServerAccount>(
    await clients[1]!.get("orders.serverAccount", { orderId: order.id }),
  );
  const ports = cluster.instances.map((instance) => String(instance.port));
  expect(new Set(attempts.map((attempt) => attempt.instance.split(":").at(-1))).size).toBe(2);
  expect(attempts.every((attempt) => ports.includes(attempt.instance.split(":").at(-1) ?? ""))).toBe(true);
  expect(attempts.filter((attempt) => attempt.decision === "executed")).toHaveLength(1);
  // Every answer, replayed or shared, names the one generation that executed.
  expect(new Set(attempts.map((attempt) => attempt.generation)).size).toBe(1);
  expect(await db.charge.count({ where: { orderId: order.id } })).toBe(1);
});
