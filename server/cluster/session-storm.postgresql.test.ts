import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { expect } from "vitest";
import { apiClient, dataOf } from "~/testing/api-client";
import type { ApiResponse } from "~/testing/api-client";
import { clusterTest } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import { databaseUrl } from "~/testing/postgres-admin";
import { newSignedSession } from "~/testing/signed-session";

/**
 * A storm of dropped database sessions: two shops on PostgreSQL and the
 * provider, under paying clients, while every 1–4 s pg_terminate_backend cuts
 * one of: every session of the shop, one instance's, the run-once owners'
 * sessions of keys in progress (those holding an advisory lock, whatever the
 * core names them), or every session of the provider. Then every order is paid
 * with its key until it answers, and audited as the crash storm is: 0 double,
 * 0 lost, 0 stuck; every payment replays its answer; every webhook event
 * delivered. Every status is counted and printed. Any 500, any
 * uncaughtException or unhandledRejection in a process's output, and any
 * process that exits fail it. SESSION_STORM_SECONDS=300 for a longer storm.
 */
const STORM_MS = Number(process.env.SESSION_STORM_SECONDS ?? 40) * 1000;
const CLIENTS = 6;

const crashes: string[] = [];
let droppedLogged = 0;
const test = clusterTest({
  count: 2,
  env: {
    IDEMPOTENCY_LEASE_MS: "5000",
    PAYMENT_COMPLETER_INTERVAL_MS: "1000",
    WEBHOOK_SECRET: "whsec_session_storm_endpoint_secret",
    WEBHOOK_RETRY_BASE_MS: "500",
    // Many paying clients from one address: the throttle is not what this storm is about.
    RATE_LIMIT_SESSION_MUTATIONS: "100000",
    RATE_LIMIT_ADDRESS_MUTATIONS: "100000",
  },
  onOutput(port, text) {
    for (const line of text.split("\n")) {
      if (/uncaughtException|unhandledRejection/.test(line)) crashes.push(`${port}: ${line.slice(0, 500)}`);
      if (line.includes("database: a session was dropped")) droppedLogged += 1;
    }
  },
});

type Target = "shop" | "one instance" | "owners of keys in progress" | "provider";
const TARGETS: Target[] = ["shop", "one instance", "owners of keys in progress", "provider"];

test(`dropped database sessions for ${STORM_MS / 1000} s under paying clients: no 500, no crash, 0 double, 0 lost, 0 stuck`, async ({
  running: { cluster, urls, db, providerDb, database },
}) => {
  const exits: string[] = [];
  for (const process of [...cluster.instances, cluster.provider]) {
    process.process.once("exit", (code, signal) => exits.push(`${process.port} exited (${code ?? signal})`));
  }
  const shopDatabase = new URL(database.url).pathname.slice(1);
  const providerDatabase = (
    await providerDb.$queryRaw<[{ name: string }]>`SELECT current_database() AS name`
  )[0].name;
  type Clients = Array<ReturnType<typeof apiClient>>;
  const statuses: Record<string, Record<number, number>> = {};
  const count = (path: string, response: ApiResponse) => {
    statuses[path] ??= {};
    statuses[path][response.status] = (statuses[path][response.status] ?? 0) + 1;
    return response;
  };
  /** Until an answer other than "not now", waiting as told (Retry-After), on one instance then the other. */
  const untilAnswered = async (
    clients: Clients,
    send: (client: Clients[number]) => Promise<ApiResponse>,
    path: string,
  ) => {
    for (let attempt = 0; ; attempt++) {
      const response = count(path, await send(clients[attempt % clients.length]!));
      if (![409, 429, 503].includes(response.status) || attempt > 200) return response;
      await sleep(Math.min(1_000, 1_000 * Number(response.headers.get("Retry-After") ?? 1)) * Math.random());
    }
  };

  const orders: Array<{ id: string; paymentKey: string; totalCents: number; clients: Clients }> = [];
  const stormEnds = Date.now() + STORM_MS;
  // Signed before the storm: the test's own sessions are the shop's too.
  const cookies = await Promise.all(
    Array.from({ length: CLIENTS }, async () => (await newSignedSession(db)).cookie),
  );
  const customer = async (index: number) => {
    const clients = urls.map((url) => apiClient(url, cookies[index]!));
    while (Date.now() < stormEnds) {
      // One submission, one key and one body, however often it is sent.
      const submission = {
        submissionKey: `storm-${index}-${crypto.randomUUID()}`,
        items: [{ sku: "notebook", quantity: 1 + (orders.length % 3) }],
      };
      const placed = await untilAnswered(
        clients,
        (client) => client.post("orders.place", submission),
        "orders.place",
      );
      if (placed.status !== 200) continue;
      const order = { ...dataOf<{ id: string; paymentKey: string; totalCents: number }>(placed), clients };
      orders.push(order);
      count("catalog.list", await clients[index % 2]!.get("catalog.list"));
      count("orders.get", await clients[(index + 1) % 2]!.get("orders.get", { orderId: order.id }));
      await untilAnswered(
        clients,
        (client) => client.post("payments.charge", chargeBody(order)),
        "payments.charge",
      );
      count("ledger.summary", await clients[index % 2]!.get("ledger.summary"));
    }
  };

  // The terminator: on the server's maintenance database, so that it is never among those it cuts.
  const admin = new pg.Client({ connectionString: databaseUrl("postgres") });
  await admin.connect();
  const injections = Object.fromEntries(TARGETS.map((target) => [target, 0])) as Record<Target, number>;
  const terminated = { ...injections };
  const cut = async (target: Target) => {
    const where = {
      shop: [`"datname" = $1`, shopDatabase],
      "one instance": [`"application_name" = $1`, `shop ${cluster.instances[injections[target] % 2]!.port}`],
      "owners of keys in progress": [
        `"datname" = $1 AND "pid" IN (SELECT "pid" FROM pg_locks WHERE "locktype" = 'advisory' AND "granted")`,
        shopDatabase,
      ],
      provider: [`"datname" = $1`, providerDatabase],
    }[target];
    const { rows } = await admin.query<{ cut: boolean }>(
      `SELECT pg_terminate_backend("pid") AS cut FROM pg_stat_activity WHERE ${where[0]} AND "pid" <> pg_backend_pid()`,
      [where[1]],
    );
    injections[target] += 1;
    terminated[target] += rows.filter((row) => row.cut).length;
  };
  const storm = (async () => {
    for (let i = 0; Date.now() < stormEnds; i++) {
      await sleep(1_000 + Math.random() * 3_000);
      await cut(TARGETS[i % TARGETS.length]!);
    }
  })();
  await Promise.all([storm, ...Array.from({ length: CLIENTS }, (_, index) => customer(index))]);
  await admin.end();

  // The customers come back: each order paid with its key until it answers, then once more: a replay.
  let replayedDifferently = 0;
  for (const order of orders) {
    const paid = await untilAnswered(
      order.clients,
      (client) => client.post("payments.charge", chargeBody(order)),
      "after",
    );
    const replay = count("replay", await order.clients[1]!.post("payments.charge", chargeBody(order)));
    if (
      paid.status !== 200 ||
      replay.headers.get("Idempotency-Decision") !== "replayed" ||
      replay.text !== paid.text
    )
      replayedDifferently += 1;
  }
  await expect
    .poll(() => providerDb.webhookEvent.count({ where: { deliveredAt: null } }), {
      interval: 500,
      timeout: 60_000,
    })
    .toBe(0);
  // Every key settles once its client has its answer: one left in progress is stuck.
  await expect
    .poll(() => db.idempotencyKey.count({ where: { state: "IN_PROGRESS" } }), {
      interval: 500,
      timeout: 20_000,
    })
    .toBe(0)
    .catch(() => undefined);
  const keysInProgress = await db.idempotencyKey.findMany({
    where: { state: "IN_PROGRESS" },
    select: { path: true, key: true, lockedUntil: true },
  });

  let double = 0;
  let lost = 0;
  for (const order of orders) {
    const atProvider = await providerDb.charge.findMany({
      where: { orderRef: order.id },
      select: { id: true },
    });
    const recorded = await db.charge.findMany({ where: { orderId: order.id }, select: { id: true } });
    if (atProvider.length > 1 || recorded.length > 1) double += 1;
    if (atProvider.some((charge) => !recorded.some((mine) => mine.id === charge.id))) lost += 1;
  }
  const ids = orders.map((order) => order.id);
  const stuck =
    keysInProgress.length +
    (await db.order.count({ where: { id: { in: ids }, status: { not: "PAID" } } })) +
    (await db.paymentAttempt.count({ where: { orderId: { in: ids }, status: { not: "SUCCEEDED" } } }));
  const webhooksGivenUp = await providerDb.webhookEvent.count({ where: { gaveUpAt: { not: null } } });
  const failures = Object.entries(statuses).flatMap(([path, byStatus]) =>
    Object.keys(byStatus)
      .filter((status) => Number(status) >= 500 && Number(status) !== 503)
      .map((status) => `${path} ${status}`),
  );
  console.log(
    JSON.stringify({
      injections,
      terminated,
      droppedLogged,
      orders: orders.length,
      double,
      lost,
      stuck,
      keysInProgress,
      statuses,
    }),
  );
  expect({ failures, crashes, exits }).toEqual({ failures: [], crashes: [], exits: [] });
  expect({ double, lost, stuck, replayedDifferently, webhooksGivenUp }).toEqual({
    double: 0,
    lost: 0,
    stuck: 0,
    replayedDifferently: 0,
    webhooksGivenUp: 0,
  });
}, 600_000);
