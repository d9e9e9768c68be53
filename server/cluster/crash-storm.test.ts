import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import { PROVIDER_CALLS_PATH } from "~/server/account/provider-calls";
import { apiClient } from "~/testing/api-client";
import { chargeBody, placeOrderWith } from "~/testing/lab-orders";
import { clusterTest } from "~/testing/fixtures";
import { newSignedSession } from "~/testing/signed-session";

/**
 * A storm of SIGKILLs: shop instances killed between the provider's charge
 * and their record, and the provider killed in the middle of a charge, each
 * restarted, while the provider's webhook, its catch-up, the retries and the
 * completer race to record each payment. Every order is then paid with the same key until it
 * answers, and both ledgers are audited: no order charged twice, no charge
 * unrecorded, and each recorded once; and the account: every charge names a
 * run on record (the one that recorded it) and a provider call on record
 * (the one that charged), whose own run is on record too.
 * CRASH_STORM_ROUNDS=40 for a longer storm.
 */
const ROUNDS = Number(process.env.CRASH_STORM_ROUNDS ?? 6);

const test = clusterTest({
  count: 3,
  env: {
    LAB_ENABLED: "1",
    IDEMPOTENCY_LEASE_MS: "5000",
    PAYMENT_COMPLETER_INTERVAL_MS: "1000",
    // The provider's webhook races the retries and the completer for each payment, on an instance that is killed too.
    WEBHOOK_SECRET: "whsec_crash_storm_endpoint_secret",
    WEBHOOK_RETRY_BASE_MS: "500",
    WEBHOOK_DUPLICATE_RATE: "0.5",
    // The catch-up takes, every second, the events the webhook has not delivered (its instance killed): a fourth road.
    WEBHOOK_CATCH_UP_INTERVAL_MS: "1000",
  },
});

test(`${ROUNDS} rounds of kill -9, between the hops and at the provider: 0 double, 0 lost`, async ({
  running: { cluster, db, providerDb },
}) => {
  const { cookie } = await newSignedSession(db);
  const client = (index: number) => apiClient(cluster.instances[index % 3]!.url, cookie);
  const orders: Array<Awaited<ReturnType<typeof placeOrderWith>>> = [];
  const kills = { betweenHops: 0, provider: 0 };

  for (let round = 0; round < ROUNDS; round++) {
    const index = round % 3;
    const betweenHops = round % 2 === 0;
    const order = await placeOrderWith(
      client(index),
      betweenHops ? { shop: { stallsBetweenHops: 1 } } : { provider: { delayMs: 1_500 } },
    );
    orders.push(order);
    const paying = client(index)
      .post("payments.charge", chargeBody(order))
      .catch(() => null);
    if (betweenHops) {
      // The provider has charged; the instance stalls before its record: kill it there.
      await expect
        .poll(() => providerDb.charge.count({ where: { orderRef: order.id } }), {
          interval: 20,
          timeout: 20_000,
        })
        .toBe(1);
      await cluster.restart(index);
      kills.betweenHops += 1;
    } else {
      // The provider holds the charge for 1.5 s before it reads the card: kill it in the middle.
      await sleep(700);
      await cluster.restart("provider");
      kills.provider += 1;
    }
    await paying;
  }

  // The customers come back: each order paid with its key, on any instance, until it answers.
  for (const [i, order] of orders.entries()) {
    await expect
      .poll(async () => (await client(i + 1).post("payments.charge", chargeBody(order))).status, {
        interval: 500,
        timeout: 60_000,
      })
      .toBe(200);
  }

  let double = 0;
  let lost = 0;
  /** Charges that name a record the account does not hold: the run that recorded it, or the call that made it. */
  const unnamed: string[] = [];
  // Which road recorded each charge: the account's record its charge names.
  const byRoad: Record<string, number> = {};
  for (const order of orders) {
    const atProvider = await providerDb.charge.findMany({
      where: { orderRef: order.id },
      select: { id: true },
    });
    const recorded = await db.charge.findMany({
      where: { orderId: order.id },
      select: { id: true, recordedBy: true, providerKey: true, providerRequestId: true },
    });
    for (const { id, recordedBy, providerKey, providerRequestId } of recorded) {
      const recorder =
        recordedBy &&
        (await db.requestRecord.findUnique({ where: { id: recordedBy }, select: { sentBy: true } }));
      const road = recorder ? recorder.sentBy : "not on record";
      byRoad[road] = (byRoad[road] ?? 0) + 1;
      // The call that charged: the one whose reply names the charge's request, or one whose reply never came.
      const calls = (
        await db.requestRecord.findMany({
          where: { scope: order.id, path: PROVIDER_CALLS_PATH, key: providerKey! },
        })
      ).map((call) => ({
        status: call.status,
        ...(JSON.parse(call.body) as { run: string; requestId: string | null }),
      }));
      const made = calls.filter((call) => call.requestId === providerRequestId || call.status === null);
      const runs = await db.requestRecord.count({ where: { id: { in: made.map((call) => call.run) } } });
      if (!recorder || made.length === 0 || runs < new Set(made.map((call) => call.run)).size)
        unnamed.push(id);
    }
    if (atProvider.length > 1 || recorded.length > 1) double += 1;
    if (atProvider.some((charge) => !recorded.some((mine) => mine.id === charge.id))) lost += 1;
  }
  const catchUps = await db.requestRecord.count({ where: { sentBy: "catch-up" } });
  const providerCharges = await providerDb.charge.count({
    where: { orderRef: { in: orders.map((o) => o.id) } },
  });
  console.log(
    JSON.stringify({
      rounds: ROUNDS,
      kills,
      orders: orders.length,
      providerCharges,
      double,
      lost,
      byRoad,
      catchUps,
      unnamed,
    }),
  );
  expect({ double, lost, providerCharges, unnamed, catchUpRan: catchUps > 0 }).toEqual({
    double: 0,
    lost: 0,
    providerCharges: orders.length,
    unnamed: [],
    catchUpRan: true,
  });
}, 900_000);
