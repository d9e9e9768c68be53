/** `npm run bench`: what run-once costs and how it scales; writes bench/results/. */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startInstances } from "../server/cluster/instances";
import type { Cluster } from "../server/cluster/instances";
import { createDb } from "../server/db/client";
import { migrateDatabase } from "service-kit/db/migrate";
import type { Db } from "../server/db/client";
import { ROOT, TMP } from "../testing/paths";
import { dropDatabase, recreateDatabase } from "../testing/postgres-admin";
import { newSignedSession } from "../testing/signed-session";
import { apiClient, dataOf } from "../testing/api-client";
import type { ApiClient } from "../testing/api-client";
import { measureEngineOverhead } from "./engine-overhead";
import { measureKeyWriteFloor } from "./key-write-floor";
import { answers, countersOf, load, percentile } from "./load";
import { NO_BACKGROUND_JOBS, UNTHROTTLED, removeSqlite, usageOf } from "./process-usage";
import { costsByArea } from "./cpu-profile";
import { costPerCharge } from "./cpu-per-charge";
import type { LoadOptions, LoadResult } from "./load";
import { ms, spreadOf, tableOf, writeReport } from "./report";
import type { Row, Series } from "./report";
import { runPeers } from "./peers";
import { orderQueue, seedOrders } from "./seed-orders";
import type { BenchOrder } from "./seed-orders";

type Provider = "sqlite" | "postgresql";
const PROVIDERS: Provider[] = ["sqlite", "postgresql"];
/** BENCH_BASE_PORT moves the servers (the provider 10 above it), to run beside a test suite. */
const BASE_PORT = Number(process.env.BENCH_BASE_PORT ?? 3301);
/** `--quick`: the user-facing rows only (overhead, storm, recovery on PostgreSQL), in fewer rounds. */
const QUICK = process.argv.includes("--quick");
/** payments.charge against its unprotected twin, p50 and p99, on both databases (issue 26). */
const APP_RATIO_TARGET = 1.1;
/** What the server's account of runs may add to that ratio (issue 15: written off the request's path). */
const ACCOUNT_RATIO_MOVE_TARGET = 0.02;
/** Per charge before Prisma 7, measured side by side: the shop's CPU must fall to 0.7× (issue 36). */
const BEFORE_PRISMA_7 = {
  commit: "2da3278",
  sqlite: { shopCpuMs: 29.7, providerCpuMs: 15.3 },
  postgresql: { shopCpuMs: 26.9, providerCpuMs: 13.3 },
};
const CPU_PER_CHARGE_TARGET = 0.7;
/** Statements per charge, shop and provider, on either database (issue 43). */
const STATEMENTS_PER_CHARGE_TARGET = { shop: 6, provider: 4 };
/** The recovery target on PostgreSQL, from the issue: kill to the retry's charge. */
const RECOVERY_TARGET_MS = 2_000;

const rows: Row[] = [];
const latencySeries: Series[] = [];
const storeSeries: Series[] = [];

const label = (provider: Provider) => (provider === "sqlite" ? "SQLite" : "PostgreSQL");
/** A row with no target: its figure is reported. */
const REPORTED = { target: "report", met: null } as const;
const addRow = (provider: Provider, instances: number, row: Omit<Row, "database" | "instances">) =>
  rows.push({ ...row, database: label(provider), instances });

/** No production build, or a source file newer than it (the quick run skips a build that is current). */
function buildIsStale(): boolean {
  const buildId = path.join(ROOT, ".next/BUILD_ID");
  if (!existsSync(buildId)) return true;
  const sources = ["app", "server", "packages", "next.config.ts", "package-lock.json"];
  const newer = ["-newer", buildId, "-type", "f", "-not", "-path", "*/node_modules/*", "-print", "-quit"];
  return execFileSync("find", [...sources, ...newer], { cwd: ROOT, encoding: "utf8" }) !== "";
}

/** Databases the run made: dropped at the end. */
const createdDatabases: string[] = [];

async function freshDatabase(provider: Provider, name: string): Promise<string> {
  if (provider === "postgresql") {
    createdDatabases.push(`idem_bench_${name}`);
    return recreateDatabase(`idem_bench_${name}`);
  }
  const file = path.join(TMP, `bench-${name}.db`);
  createdDatabases.push(file);
  removeSqlite(file);
  return `file:${file}`;
}

/** `count` servers on a fresh database `name`, and a client of it, for the time of `work`. */
async function withCluster<T>(
  provider: Provider,
  name: string,
  count: number,
  env: Record<string, string>,
  work: (cluster: Cluster, db: Db) => Promise<T>,
  nodeArgs: string[] = [],
): Promise<T> {
  const url = await freshDatabase(provider, name);
  const cluster = await startInstances({
    databaseUrl: url,
    count,
    basePort: BASE_PORT,
    providerPort: BASE_PORT + 10,
    nodeArgs,
    // Lab off (its switches cost queries), baseline procedures on.
    env: { LAB_ENABLED: "0", BENCH_BASELINE: "1", ...UNTHROTTLED, ...env },
  });
  const db = createDb(url);
  try {
    return await work(cluster, db);
  } finally {
    await db.$disconnect();
    await cluster.stop();
  }
}

/** The counters of every instance of the cluster, summed. */
async function countersOfAll(cluster: Cluster) {
  const sum = { queries: 0, outcomes: {} as Record<string, number> };
  for (const { queries, outcomes } of await Promise.all(cluster.instances.map((i) => countersOf(i.url)))) {
    sum.queries += queries;
    for (const [outcome, count] of Object.entries(outcomes))
      sum.outcomes[outcome] = (sum.outcomes[outcome] ?? 0) + count;
  }
  return sum;
}

/** A charge of the order's full amount with its persisted key. */
const chargeInput = (order: BenchOrder) => ({
  orderId: order.id,
  amountCents: order.totalCents,
  idempotencyKey: order.paymentKey,
  paymentMethodId: "pm_card_visa",
});
const chargeBody = (order: BenchOrder) => JSON.stringify(chargeInput(order));

/** Load on every instance of the cluster at once; `options` may vary with the instance's index. */
const loadEach = (cluster: Cluster, options: (index: number) => Omit<LoadOptions, "url">) =>
  Promise.all(cluster.instances.map((instance, index) => load({ url: instance.url, ...options(index) })));

/** payments.charge beside its unprotected and its unaccounted twins, in ABCCBA rounds against drift. */
async function overhead(provider: Provider) {
  await withCluster(provider, "overhead", 1, {}, async (cluster, db) => {
    const { id: session, cookie } = await newSignedSession(db);
    const perRound = QUICK ? 100 : 300;
    const warmUp = QUICK ? 50 : 200;
    // Enough rounds that the spread of their ratios shows how far one run's figure can be trusted.
    const rounds = QUICK ? 4 : 12;
    const sides = ["payments.charge", "bench.chargeWithoutAccount", "bench.unprotectedCharge"] as const;
    // The rounds, the warm-ups, and slack for a request autocannon resends.
    const next = orderQueue(await seedOrders(db, session, sides.length * (perRound * rounds + warmUp) + 200));
    const chargesOn = (procedure: string, amount: number) =>
      load({
        url: cluster.instances[0]!.url,
        path: `/api/trpc/${procedure}`,
        cookie,
        connections: 4,
        amount,
        body: () => chargeBody(next()),
      });
    for (const side of sides) await chargesOn(side, warmUp); // connections, JIT, caches

    const results = new Map<(typeof sides)[number], LoadResult[]>(sides.map((side) => [side, []]));
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse())
        results.get(side)!.push(await chargesOn(side, perRound));
    }
    const failures = Object.entries(answers([...results.values()].flat())).filter(
      ([status]) => status !== "200",
    );
    if (failures.length > 0) throw new Error(`overhead run had failures: ${JSON.stringify(failures)}`);
    const latencies = (side: (typeof sides)[number]) => results.get(side)!.flatMap((r) => r.latenciesMs);
    const a = latencies("payments.charge");
    const withoutAccount = latencies("bench.chargeWithoutAccount");
    const b = latencies("bench.unprotectedCharge");
    // Each round's ratio too: their spread shows how much of the result is the machine's noise.
    const spread = (p: number) => {
      const unprotected = results.get("bench.unprotectedCharge")!;
      const ratios = results
        .get("payments.charge")!
        .map(
          (result, round) =>
            percentile(result.latenciesMs, p) / percentile(unprotected[round]!.latenciesMs, p),
        );
      return `per-round p${p} ratios ${spreadOf(ratios)}`;
    };
    for (const p of [50, 99]) {
      const ratio = percentile(a, p) / percentile(b, p);
      addRow(provider, 1, {
        case: `Overhead ratio, p${p}`,
        result: `${ratio.toFixed(2)}× (${ms(percentile(a, p))} vs ${ms(percentile(b, p))})`,
        target: `≤ ${APP_RATIO_TARGET}`,
        met: ratio <= APP_RATIO_TARGET,
        how: `payments.charge vs the same handler without run-once, ${a.length} + ${b.length} requests, 4 connections, ${rounds} ABCCBA rounds (${spread(p)})`,
      });
    }
    const ratioWithout = percentile(withoutAccount, 50) / percentile(b, 50);
    const accountCost = percentile(a, 50) / percentile(b, 50) - ratioWithout;
    addRow(provider, 1, {
      case: "The account of runs: overhead ratio moved by",
      result: `${accountCost >= 0 ? "+" : ""}${accountCost.toFixed(3)} (p50 ratio without its writes ${ratioWithout.toFixed(2)}×)`,
      target: `≤ ${ACCOUNT_RATIO_MOVE_TARGET}`,
      met: accountCost <= ACCOUNT_RATIO_MOVE_TARGET,
      how: `payments.charge vs bench.chargeWithoutAccount (its attempt records dropped unwritten), each over the unprotected twin, in the same ${rounds} rounds`,
    });
    for (const [variant, values] of Object.entries({ "with run-once": a, without: b }))
      for (const p of [50, 90, 99])
        latencySeries.push({ group: `${label(provider)}, ${variant}`, x: `p${p}`, y: percentile(values, p) });
  });
}

/** 1,000 concurrent requests with one key, split over the instances; statements from db_queries_total. */
async function storm(provider: Provider, instances: number) {
  await withCluster(provider, `storm${instances}`, instances, NO_BACKGROUND_JOBS, async (cluster, db) => {
    const { id: session, cookie } = await newSignedSession(db);
    const [order, ...warmUps] = await seedOrders(db, session, 1 + instances);
    const body = chargeBody(order!);
    // Every instance has charged another order (connections open, secrets loaded, code warm) before the storm.
    for (const [index, instance] of cluster.instances.entries()) {
      const warmUp = await apiClient(instance.url, cookie).post(
        "payments.charge",
        chargeInput(warmUps[index]!),
      );
      if (warmUp.status !== 200)
        throw new Error(`the warm-up charge answered ${warmUp.status}: ${warmUp.text}`);
    }
    await sleep(500); // its account of runs is written once quiet for 200 ms
    const before = await countersOfAll(cluster);

    const total = 1000;
    const startedAt = performance.now();
    const results = await loadEach(cluster, (index) => {
      const share = Math.floor(total / instances) + (index < total % instances ? 1 : 0);
      return {
        path: "/api/trpc/payments.charge",
        cookie,
        connections: share,
        amount: share,
        body: () => body,
      };
    });
    const lastAnswerMs = performance.now() - startedAt;
    await sleep(5_500); // the account of runs (and replay counts) is written within 5 s: counted too
    const after = await countersOfAll(cluster);
    const queries = after.queries - before.queries;
    const decisions = Object.entries(after.outcomes).map(
      ([outcome, count]) => [outcome, count - (before.outcomes[outcome] ?? 0)] as const,
    );
    const executions = await db.charge.count({ where: { orderId: order!.id } });
    // The one execution (about 11 statements, BEGIN not logged) and the batched account of runs.
    const constant = 20;
    addRow(provider, instances, {
      case: "Storm: executions",
      result: `${executions} (answers: ${Object.entries(answers(results))
        .map(([status, count]) => `${count}× ${status}`)
        .join(", ")}; ${decisions
        .filter(([, count]) => count > 0)
        .map(([outcome, count]) => `${count} ${outcome}`)
        .join(", ")})`,
      target: "exactly 1",
      met: executions === 1,
      how: `${total} concurrent requests, one key, ${instances === 1 ? "one instance" : `split over ${instances} instances`}`,
    });
    addRow(provider, instances, {
      case: "Storm: database statements",
      result: String(queries),
      target: `≤ 3 × ${instances} + ${constant} = ${3 * instances + constant}`,
      met: queries <= 3 * instances + constant,
      how: "db_queries_total from /api/metrics (Prisma's query log and the owners' sessions, BEGIN left out), before and after, background jobs paused; the constant covers the one execution and the batched account of runs",
    });
    addRow(provider, instances, {
      case: "Storm: time to the last answer",
      result: ms(lastAnswerMs),
      ...REPORTED,
      how: "from sending the first request to receiving the last (includes 1,000 connection setups)",
    });
  });
}

/** Distinct-key charges per second at saturation, and what each costs the shop and the provider. */
async function throughput(provider: Provider, instances: number): Promise<number> {
  return withCluster(provider, `throughput${instances}`, instances, {}, async (cluster, db) => {
    const { id: session, cookie } = await newSignedSession(db);
    const next = orderQueue(await seedOrders(db, session, 12_000));
    const charges = (options: Pick<LoadOptions, "connections" | "amount" | "durationSeconds">) =>
      loadEach(cluster, () => ({
        path: "/api/trpc/payments.charge",
        cookie,
        body: () => chargeBody(next()),
        ...options,
      }));
    await charges({ connections: 4, amount: 100 });
    const connections = 24;
    const seconds = 8;
    const before = await usageOf(cluster);
    const counts = answers(
      await charges({ connections: Math.round(connections / instances), durationSeconds: seconds }),
    );
    const after = await usageOf(cluster);
    const ok = counts["200"] ?? 0;
    const failed = Object.values(counts).reduce((a, b) => a + b, 0) - ok;
    // Charges, not requests: the successful answers per second of the run.
    const perSecond = ok / seconds;
    addRow(provider, instances, {
      case: "Throughput, distinct keys",
      result: `${perSecond.toFixed(0)} charges/s${failed > 0 ? ` (${failed} failed)` : ""}`,
      ...REPORTED,
      how: `${connections} connections for ${seconds} s, ${ok} charges, on ${os.cpus().length} cores shared with the database and the load`,
    });
    const per = (key: keyof typeof before) => ((after[key] - before[key]) / ok).toFixed(1);
    addRow(provider, instances, {
      case: "CPU per charge at saturation: shop, provider",
      result: `${per("shopCpuMs")} ms, ${per("providerCpuMs")} ms`,
      ...REPORTED,
      how: "user + system CPU of each server process (/proc/PID/stat) over the throughput run, divided by its charges",
    });
    addRow(provider, instances, {
      case: "Statements per charge at saturation: shop, provider",
      result: `${per("shopStatements")}, ${per("providerStatements")}`,
      ...REPORTED,
      how: "db_queries_total and provider_db_queries_total (Prisma's query logs and the owners' sessions, BEGIN left out; round trips add it) over the throughput run, divided by its charges",
    });
    if (instances === 1) {
      const [catalog] = await loadEach(cluster, () => ({
        path: "/api/trpc/catalog.list",
        cookie,
        connections,
        durationSeconds: seconds,
      }));
      const catalogPerSecond = (catalog!.statuses[200] ?? 0) / seconds;
      addRow(provider, 1, {
        case: "Charges/s ÷ catalog.list/s",
        result: `${(perSecond / catalogPerSecond).toFixed(3)} (${perSecond.toFixed(0)} ÷ ${catalogPerSecond.toFixed(0)})`,
        ...REPORTED,
        how: `catalog.list (GET, one read) with ${connections} connections for ${seconds} s right after the charges, same server`,
      });
    }
    return perSecond;
  });
}

/** CPU and statements per charge against the build before Prisma 7: BENCH_BEFORE, or its figures. */
async function cpu(provider: Provider) {
  const charges = 1000;
  const beforeCheckout = process.env.BENCH_BEFORE;
  const [cost, measured] = await costPerCharge(provider, {
    charges,
    basePort: BASE_PORT,
    others: beforeCheckout ? [beforeCheckout] : [],
  });
  const before = measured ?? BEFORE_PRISMA_7[provider];
  const ratio = cost!.shopCpuMs / before.shopCpuMs;
  const batchRatios = measured
    ? `; per-batch ratios ${spreadOf(cost!.batchShopCpuMs.map((ms, batch) => ms / measured.batchShopCpuMs[batch]!))}`
    : "";
  const how = `${charges} distinct-key charges, 4 connections, one shop, background jobs paused (bench/cpu-per-charge.ts); before: ${
    measured
      ? `a build of main before Prisma 7 running side by side, the two taking turns in ${cost!.batchShopCpuMs.length} batches${batchRatios}`
      : `main at ${BEFORE_PRISMA_7.commit} (Prisma 6.19.3), recorded from such a side-by-side run`
  }`;
  addRow(provider, 1, {
    case: "CPU per charge: shop (provider)",
    result: `${cost!.shopCpuMs.toFixed(1)} ms (${cost!.providerCpuMs.toFixed(1)} ms), ${ratio.toFixed(2)}× of ${before.shopCpuMs.toFixed(1)} ms (${before.providerCpuMs.toFixed(1)} ms) before`,
    target: `≤ ${CPU_PER_CHARGE_TARGET}× before`,
    met: ratio <= CPU_PER_CHARGE_TARGET,
    how: `user + system CPU of each process (/proc/PID/stat) over ${how}`,
  });
  addRow(provider, 1, {
    case: "Statements per charge: shop, provider",
    result: `${cost!.shopStatements.toFixed(2)}, ${cost!.providerStatements.toFixed(2)} (round trips, BEGIN included: ${cost!.shopRoundTrips.toFixed(2)}, ${cost!.providerRoundTrips.toFixed(2)})`,
    target: `≤ ${STATEMENTS_PER_CHARGE_TARGET.shop}, ${STATEMENTS_PER_CHARGE_TARGET.provider}`,
    // A hundredth of a statement is the counters' noise (a batch of replay counts landing inside the run).
    met:
      cost!.shopStatements <= STATEMENTS_PER_CHARGE_TARGET.shop + 0.01 &&
      cost!.providerStatements <= STATEMENTS_PER_CHARGE_TARGET.provider + 0.01,
    how: `db_queries_total and provider_db_queries_total (Prisma's query logs and the owners' sessions, BEGIN left out; round trips add it) over ${how}`,
  });
}

/** The shop under the throughput run's charges with --cpu-prof (PostgreSQL, one instance): its largest costs. */
async function profile() {
  const directory = path.join(TMP, `bench-profiles-${Date.now()}`);
  const nodeArgs = ["--cpu-prof", `--cpu-prof-dir=${directory}`];
  const pid = await withCluster(
    "postgresql",
    "profile",
    1,
    {},
    async (cluster, db) => {
      const { id: session, cookie } = await newSignedSession(db);
      const next = orderQueue(await seedOrders(db, session, 2_000));
      const body = () => chargeBody(next());
      const charges = { url: cluster.instances[0]!.url, path: "/api/trpc/payments.charge", cookie, body };
      await load({ ...charges, connections: 4, amount: 50 });
      await load({ ...charges, connections: 24, durationSeconds: 8 });
      return cluster.instances[0]!.process.pid!;
    },
    nodeArgs,
  );
  // Written when the server exits; named with its pid.
  const file = readdirSync(directory).find((name) => name.includes(`.${pid}.`));
  if (!file) throw new Error(`no profile of the shop (pid ${pid}) in ${directory}`);
  addRow("postgresql", 1, {
    case: "CPU profile of the shop under charges: its largest costs",
    result: costsByArea(path.join(directory, file), 8_000)
      .slice(0, 5)
      .map(({ area, share }) => `${area} ${(share * 100).toFixed(0)}%`)
      .join("; "),
    ...REPORTED,
    how: `node --cpu-prof on the shop's server, 24 connections of distinct-key charges for 8 s: the share of those 8 s with the area on the stack (areas overlap); the profile is ${path.relative(ROOT, path.join(directory, file))}`,
  });
}

/** Keys under a steady load with a 3 s TTL, swept every 0.5 s: they must level off within 2 × rate × TTL. */
async function storeGrowth(provider: Provider) {
  const ttlSeconds = 3;
  const rate = 100;
  const env = { IDEMPOTENCY_TTL_MS: String(ttlSeconds * 1000), IDEMPOTENCY_SWEEP_INTERVAL_MS: "500" };
  await withCluster(provider, "growth", 1, env, async (cluster, db) => {
    const { cookie } = await newSignedSession(db);
    const samples: Array<{ t: number; rows: number }> = [];
    const startedAt = performance.now();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push({ t: (performance.now() - startedAt) / 1000, rows: await db.idempotencyKey.count() });
        await sleep(500);
      }
    })();
    await load({
      url: cluster.instances[0]!.url,
      path: "/api/trpc/orders.place",
      cookie,
      connections: 10,
      overallRate: rate,
      durationSeconds: 20,
      body: () => JSON.stringify({ submissionKey: randomUUID(), items: [{ sku: "notebook", quantity: 1 }] }),
    });
    await sleep(5_000);
    sampling = false;
    await sampler;

    const bound = 2 * rate * ttlSeconds;
    const largest = Math.max(...samples.map((sample) => sample.rows));
    const lastLoaded = samples
      .filter((sample) => sample.t >= 10 && sample.t <= 20)
      .map((sample) => sample.rows);
    addRow(provider, 1, {
      case: "Store rows under steady load",
      result: `max ${largest}, ${Math.min(...lastLoaded)}–${Math.max(...lastLoaded)} in the second half`,
      target: `≤ 2 × ${rate}/s × ${ttlSeconds} s = ${bound}`,
      met: largest <= bound,
      how: `orders.place at ${rate}/s for 20 s (distinct keys), TTL ${ttlSeconds} s, sweep every 0.5 s, rows counted every 0.5 s`,
    });
    storeSeries.push(
      ...samples.map((sample) => ({ group: `keys, ${label(provider)}`, x: sample.t, y: sample.rows })),
    );
    if (!storeSeries.some((point) => point.group.startsWith("bound")))
      storeSeries.push(
        ...samples.map((sample) => ({ group: "bound: 2 × rate × TTL", x: sample.t, y: bound })),
      );
  });
}

/** A client of each of two instances (lab on) for one session, and an order with lab switches on it. */
async function labOrder(cluster: Cluster, db: Db, switches: object) {
  const { cookie } = await newSignedSession(db);
  const [a, b] = cluster.instances.map((instance) => apiClient(instance.url, cookie)) as [
    ApiClient,
    ApiClient,
  ];
  const placed = await a.post("orders.place", {
    submissionKey: randomUUID(),
    items: [{ sku: "headphones", quantity: 1 }],
  });
  const order = dataOf<BenchOrder>(placed);
  const set = await a.post("lab.setSwitches", { orderId: order.id, ...switches });
  if (set.status !== 200) throw new Error(`lab.setSwitches answered ${set.status}: ${set.text}`);
  return { a, b, order, charge: chargeInput(order) };
}

/** A is SIGKILLed between the provider's charge and its record; from the kill to B's retried charge. */
async function recovery(provider: Provider) {
  const leaseMs = 10_000;
  const env = { LAB_ENABLED: "1", IDEMPOTENCY_LEASE_MS: String(leaseMs) };
  await withCluster(provider, `recovery_${provider}`, 2, env, async (cluster, db) => {
    const { a, b, order, charge } = await labOrder(cluster, db, { shop: { stallsBetweenHops: 1 } });
    void a.post("payments.charge", charge).catch(() => undefined);
    // A stalls for 4 s after the provider's charge: kill it once its key is claimed and the provider answered.
    while ((await db.idempotencyKey.findFirst({ where: { key: order.paymentKey } }))?.state !== "IN_PROGRESS")
      await sleep(20);
    await sleep(1_000);
    const killedAt = performance.now();
    await cluster.crash(0);
    let attempts = 0;
    let decision: string | null = null;
    for (;;) {
      attempts++;
      const retry = await b.post("payments.charge", charge);
      if (retry.status === 200) {
        decision = retry.headers.get("Idempotency-Decision");
        break;
      }
      await sleep(50);
    }
    const recoveredMs = performance.now() - killedAt;
    const charges = await db.charge.count({ where: { orderId: order.id } });
    const postgres = provider === "postgresql";
    addRow(provider, 2, {
      case: "Recovery after SIGKILL mid-charge",
      result: `${(recoveredMs / 1000).toFixed(2)} s, ${attempts} request(s), ${decision}, ${charges} charge(s)`,
      target: postgres
        ? `≤ ${RECOVERY_TARGET_MS / 1000} s, 1 charge`
        : `≤ lease (${leaseMs / 1000} s), 1 charge`,
      met: charges === 1 && recoveredMs <= (postgres ? RECOVERY_TARGET_MS : leaseMs + 1_000),
      how: postgres
        ? "the owner's session lock dies with it; the retry on the other instance takes over on arrival"
        : "SQLite: the dead owner's heartbeat stops; the retry takes over when its lease runs out",
    });
  });
}

/** A 5 s card under a 2 s lease, its duplicate on B a second later: one answer, no lease lost. */
async function leaseKeep(provider: Provider) {
  const env = { LAB_ENABLED: "1", IDEMPOTENCY_LEASE_MS: "2000", IDEMPOTENCY_WAIT_MS: "15000" };
  await withCluster(provider, `lease_keep_${provider}`, 2, env, async (cluster, db) => {
    const { a, b, order, charge } = await labOrder(cluster, db, { provider: { delayMs: 5_000 } });
    const first = a.post("payments.charge", charge);
    await sleep(1_000);
    const [owner, duplicate] = await Promise.all([first, b.post("payments.charge", charge)]);
    const leaseLost = [owner, duplicate].some((response) => response.text.includes("IDEMPOTENCY_LEASE_LOST"));
    const charges = await db.charge.count({ where: { orderId: order.id } });
    const same = owner.status === 200 && duplicate.status === 200 && owner.text === duplicate.text;
    addRow(provider, 2, {
      case: "Lease kept by a live owner (2 s lease, 5 s card)",
      result: `${owner.status}/${duplicate.status}, ${same ? "same answer" : "different answers"}, ${charges} charge(s)${leaseLost ? ", LEASE_LOST" : ""}`,
      target: "one answer, 1 charge, no lease lost",
      met: same && charges === 1 && !leaseLost,
      how: "the owner renews its lease every third of it while the card network works",
    });
  });
}

/** The engine in this process against the same Prisma transaction without it; on PostgreSQL, the floor of any key. */
async function engineOverhead(provider: Provider) {
  const url = await freshDatabase(provider, `engine_${provider}`);
  await migrateDatabase(url);
  const rounds = 8;
  const perRound = 250;
  const {
    withRunOnceMs: a,
    withoutMs: b,
    roundRatios,
  } = await measureEngineOverhead(url, { rounds, perRound });
  const ratio = percentile(a, 50) / percentile(b, 50);
  const addedMs = percentile(a, 50) - percentile(b, 50);
  const how = `one ledger row per call, sequential, ${a.length} + ${b.length} calls in ${rounds} rounds, order reversed each round (per-round ratios ${spreadOf(roundRatios)}); the claim commits on its own, then the row, the bare transaction and the completion go through Prisma's interactive transaction, as the shop writes them`;
  addRow(provider, 1, {
    case: "Engine overhead ratio, p50",
    result: `${ratio.toFixed(2)}× (${ms(percentile(a, 50))} vs ${ms(percentile(b, 50))})`,
    ...REPORTED,
    how,
  });
  addRow(provider, 1, {
    case: "Engine added latency, p50",
    result: `+${addedMs.toFixed(2)} ms`,
    ...REPORTED,
    how,
  });
  if (provider !== "postgresql") return;
  const { bareMs, withKeyMs } = await measureKeyWriteFloor(url, { rounds, perRound });
  addRow(provider, 1, {
    case: "Floor of any key in PostgreSQL, p50: one completed row",
    result: `${(withKeyMs / bareMs).toFixed(2)}×, +${(withKeyMs - bareMs).toFixed(2)} ms (${withKeyMs.toFixed(2)} ms vs ${bareMs.toFixed(2)} ms)`,
    ...REPORTED,
    how: `the one-row transaction through pg with the finished key's insert added and no round trip of its own (BEGIN to COMMIT in one round trip, as the bare side's), ${rounds} alternating rounds of ${perRound}: the database's own cost of a key row, under any engine`,
  });
}

// `--peers`: the peers report alone (no build, no servers), written to bench/results/peers.md.
if (process.argv.includes("--peers")) {
  console.log(await runPeers());
  process.exit(0);
}

// BENCH_CASES=storm,growth runs some cases only (for a quick look; the report then has only those).
const selected = new Set(
  (
    process.env.BENCH_CASES ??
    (QUICK ? "overhead,storm,recovery" : "overhead,storm,cpu,throughput,profile,growth,recovery,lease,engine")
  ).split(","),
);
const started = Date.now();
if (!QUICK || buildIsStale()) execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
if (selected.has("overhead"))
  for (const provider of (process.env.BENCH_PROVIDERS?.split(",") ?? PROVIDERS) as Provider[])
    await overhead(provider);
if (selected.has("storm")) {
  await storm("sqlite", 1);
  await storm("postgresql", 1);
  await storm("postgresql", 3);
}
if (selected.has("cpu")) for (const provider of PROVIDERS) await cpu(provider);
if (selected.has("throughput")) {
  await throughput("sqlite", 1);
  const one = await throughput("postgresql", 1);
  const three = await throughput("postgresql", 3);
  addRow("postgresql", 3, {
    case: "Throughput scaling, 3 vs 1 instance",
    result: `${(three / one).toFixed(2)}×`,
    ...REPORTED,
    how: `${os.cpus().length} cores: the instances, PostgreSQL and autocannon share them, so CPU, not the store, is the ceiling`,
  });
}
if (selected.has("profile")) await profile();
if (selected.has("growth")) for (const provider of PROVIDERS) await storeGrowth(provider);
// SQLite's recovery waits out a 10 s lease: the quick run keeps PostgreSQL's, the one with a target.
if (selected.has("recovery"))
  for (const provider of QUICK ? (["postgresql"] as const) : PROVIDERS) await recovery(provider);
if (selected.has("lease")) for (const provider of PROVIDERS) await leaseKeep(provider);
if (selected.has("engine")) for (const provider of PROVIDERS) await engineOverhead(provider);

const elapsedSeconds = (Date.now() - started) / 1000;
// The quick run prints its rows; bench/results/ keeps the last full run's.
console.log(
  QUICK
    ? `${tableOf(rows)}\n\nQuick run: ${Math.round(elapsedSeconds)} s.`
    : await writeReport({
        rows,
        latency: latencySeries,
        storeSize: storeSeries,
        directory: path.join(ROOT, "bench/results"),
        elapsedSeconds,
      }),
);
for (const name of createdDatabases) {
  if (name.startsWith("idem_bench_")) await dropDatabase(name);
  else removeSqlite(name);
}
