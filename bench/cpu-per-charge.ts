/** CPU and statements per charge; with another build, both take turns. `--against <folder>`. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, TMP } from "../testing/paths";
import { dropDatabase, recreateDatabase } from "../testing/postgres-admin";
import { load } from "./load";
import { NO_BACKGROUND_JOBS, UNTHROTTLED, removeSqlite, usageOf } from "./process-usage";
import type { Usage } from "./process-usage";

/** Usage per charge, and each batch's shop CPU per charge: their spread shows the machine's noise. */
export type ChargeCost = Usage & { batchShopCpuMs: number[] };

const WARM_UP = 200;
const BATCHES = 10;

/** A checkout's own modules: each build is started and seeded by its own code and its own Prisma client. */
async function modulesOf(root: string) {
  const load = <Module>(file: string) => import(path.join(root, file)) as Promise<Module>;
  const [{ startInstances }, { createDb }, { newSignedSession }, { orderQueue, seedOrders }] =
    await Promise.all([
      load<typeof import("../server/cluster/instances")>("server/cluster/instances.ts"),
      load<typeof import("../server/db/client")>("server/db/client.ts"),
      load<typeof import("../testing/signed-session")>("testing/signed-session.ts"),
      load<typeof import("./seed-orders")>("bench/seed-orders.ts"),
    ]);
  return { startInstances, createDb, newSignedSession, orderQueue, seedOrders };
}

/** One build's shop and provider on a fresh database of their own, ready to be charged; `nodeArgs` for the shop. */
export async function startSide(
  root: string,
  index: number,
  provider: "sqlite" | "postgresql",
  basePort: number,
  charges: number,
  nodeArgs: string[] = [],
) {
  const { startInstances, createDb, newSignedSession, orderQueue, seedOrders } = await modulesOf(root);
  const name = `idem_bench_cpu_${index}`;
  const file = path.join(TMP, `bench-cpu-${index}.db`);
  const providerFile = path.join(TMP, `bench-cpu-${index}-provider.db`);
  const removeFiles = () => [file, providerFile].forEach(removeSqlite);
  removeFiles();
  const url = provider === "postgresql" ? await recreateDatabase(name) : `file:${file}`;
  const cluster = await startInstances({
    databaseUrl: url,
    providerDatabaseUrl: `file:${providerFile}`,
    count: 1,
    basePort: basePort + 20 * index,
    providerPort: basePort + 20 * index + 10,
    nodeArgs,
    env: { LAB_ENABLED: "0", ...UNTHROTTLED, ...NO_BACKGROUND_JOBS },
  });
  const db = createDb(url);
  const { id: session, cookie } = await newSignedSession(db);
  const next = orderQueue(await seedOrders(db, session, WARM_UP + charges + 100));
  const shop = cluster.instances[0]!;
  return {
    async charge(amount: number) {
      const result = await load({
        url: shop.url,
        path: "/api/trpc/payments.charge",
        cookie,
        connections: 4,
        amount,
        body: () => {
          const order = next();
          return JSON.stringify({
            orderId: order.id,
            amountCents: order.totalCents,
            idempotencyKey: order.paymentKey,
            paymentMethodId: "pm_card_visa",
          });
        },
      });
      const ok = result.statuses[200] ?? 0;
      if (ok !== amount) throw new Error(`${amount - ok} of ${amount} charges failed (${root})`);
    },
    usage: () => usageOf(cluster),
    pid: shop.process.pid!,
    async stop() {
      await db.$disconnect();
      await cluster.stop();
      if (provider === "postgresql") await dropDatabase(name);
      removeFiles();
    },
  };
}

/** `charges` charges per build, in batches the builds take in turns, the order reversed each batch. */
export async function costPerCharge(
  provider: "sqlite" | "postgresql",
  opts: { charges: number; basePort: number; others?: string[] },
): Promise<ChargeCost[]> {
  const roots = [ROOT, ...(opts.others ?? [])];
  const sides: Awaited<ReturnType<typeof startSide>>[] = [];
  try {
    for (const [index, root] of roots.entries())
      sides.push(await startSide(root, index, provider, opts.basePort, opts.charges));
    for (const side of sides) await side.charge(WARM_UP); // connections, JIT, caches (Prisma 7's query plans)
    const costs = sides.map((): ChargeCost => ({
      shopCpuMs: 0,
      providerCpuMs: 0,
      shopStatements: 0,
      shopRoundTrips: 0,
      providerStatements: 0,
      providerRoundTrips: 0,
      batchShopCpuMs: [],
    }));
    const batch = Math.ceil(opts.charges / BATCHES);
    for (let round = 0; round < BATCHES; round++) {
      for (const index of round % 2 === 0 ? sides.keys() : [...sides.keys()].reverse()) {
        const before = await sides[index]!.usage();
        await sides[index]!.charge(batch);
        const after = await sides[index]!.usage();
        const cost = costs[index]!;
        for (const key of Object.keys(after) as Array<keyof Usage>)
          cost[key] += (after[key] - before[key]) / (batch * BATCHES);
        cost.batchShopCpuMs.push((after.shopCpuMs - before.shopCpuMs) / batch);
      }
    }
    return costs;
  } finally {
    for (const side of sides) await side.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const against = process.argv.indexOf("--against");
  const others = against === -1 ? [] : [path.resolve(process.argv[against + 1]!)];
  const opts = {
    charges: Number(process.env.BENCH_CHARGES ?? 1000),
    basePort: Number(process.env.BENCH_BASE_PORT ?? 3301),
    others,
  };
  for (const provider of ["sqlite", "postgresql"] as const)
    console.log(
      JSON.stringify({ provider, builds: [ROOT, ...others], costs: await costPerCharge(provider, opts) }),
    );
}
