import { readFileSync, rmSync } from "node:fs";
import type { Cluster } from "../server/cluster/instances";
import { countersOf } from "./load";

/** Settings of every benchmarked shop: a throttle that counts but refuses none. */
export const UNTHROTTLED = {
  RATE_LIMIT_SESSION_MUTATIONS: String(Number.MAX_SAFE_INTEGER),
  RATE_LIMIT_ADDRESS_MUTATIONS: String(Number.MAX_SAFE_INTEGER),
};

/** A SQLite database's files gone, its journal's too. */
export const removeSqlite = (file: string) => {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
};

/** The background jobs (payment completer, key sweeper) paused: they poll per second, not per request. */
export const NO_BACKGROUND_JOBS = {
  PAYMENT_COMPLETER_INTERVAL_MS: "3600000",
  IDEMPOTENCY_SWEEP_INTERVAL_MS: "3600000",
};

/** The CPU time a process has used so far, user and system, in ms: read from /proc (Linux), so no server reports it. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After the name (which may hold spaces and parentheses): state is field 3, utime 14 and stime 15, in 10 ms ticks.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function counterOf(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
}

/** What the services have spent so far: CPU ms, statements and round trips (BEGIN included), shops summed. */
export async function usageOf(cluster: Pick<Cluster, "instances" | "provider">) {
  const shops = await Promise.all(cluster.instances.map((instance) => countersOf(instance.url)));
  const providerMetrics = `${cluster.provider.url}/metrics`;
  return {
    shopCpuMs: cluster.instances.reduce((sum, instance) => sum + cpuMsOf(instance.process.pid!), 0),
    providerCpuMs: cpuMsOf(cluster.provider.process.pid!),
    shopStatements: shops.reduce((sum, counters) => sum + counters.queries, 0),
    /** Builds without the round-trip counters: NaN. */
    shopRoundTrips: shops.reduce((sum, counters) => sum + counters.roundTrips, 0),
    providerStatements: await counterOf(providerMetrics, "provider_db_queries_total"),
    providerRoundTrips: await counterOf(providerMetrics, "provider_db_round_trips_total"),
  };
}

export type Usage = Awaited<ReturnType<typeof usageOf>>;
