import { expect } from "vitest";
import type { Registry } from "prom-client";
import { newSessionId } from "../session";
import { test } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import { startTestProvider } from "~/testing/test-provider";

const onPostgresql = process.env.TEST_DATABASE === "postgresql";

const counter = async (registry: Registry, name: string) =>
  (await registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;

test("a first charge costs the same statements and round trips every time, owners' sessions counted", async ({
  startApp,
}) => {
  const provider = await startTestProvider({ lab: false });
  try {
    const app = await startApp({ paymentProvider: provider });
    const caller = app.caller(newSessionId());
    const shop = app.services.metrics.registry;
    const { registry } = provider.running.metrics;
    const counts = async () => [
      await counter(shop, "db_queries_total"),
      await counter(shop, "db_round_trips_total"),
      await counter(registry, "provider_db_queries_total"),
      await counter(registry, "provider_db_round_trips_total"),
    ];
    const least = [Infinity, Infinity, Infinity, Infinity];
    for (let i = 0; i < 3; i++) {
      const order = await caller.orders.place({
        submissionKey: `place-${i}`,
        items: [{ sku: "notebook", quantity: 1 }],
      });
      await app.services.account.flush();
      const before = await counts();
      await caller.payments.charge(chargeBody(order));
      (await counts()).forEach((count, at) => (least[at] = Math.min(least[at]!, count - before[at]!)));
    }
    // The least of three: on a loaded machine the account's batch of arrivals can land inside a charge.
    // The shop: claim, the recovery point (its WHERE checks the order), the call's record, then BEGIN, the charge, the attempt,
    // the order, the receipt's outbox row, the run's record, the completion, COMMIT (PostgreSQL: and the unlock).
    // The provider: claim, BEGIN, the charge, the completion, COMMIT (PostgreSQL: and the unlock).
    expect(least).toEqual(onPostgresql ? [11, 12, 5, 6] : [10, 11, 4, 5]);
  } finally {
    await provider.close();
  }
});
