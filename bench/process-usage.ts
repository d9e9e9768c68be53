import { readFileSync } from "node:fs";

/** The CPU time a process has used so far, user and system, in ms: read from /proc (Linux), so no server reports it. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After the name (which may hold spaces and parentheses): state is field 3, utime 14 and stime 15, in 10 ms ticks.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One counter's value from a Prometheus endpoint. */
export async function counterOf(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
}
