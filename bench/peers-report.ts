import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vega from "vega";
import { compile } from "vega-lite";
import type { TopLevelSpec } from "vega-lite";
import type { Overhead, PeerResult, PeersRun } from "./peers";
import type { Row } from "./report";

const START = "<!-- peers:start -->";
const END = "<!-- peers:end -->";

const ms = (value: number) => `${value.toFixed(2)} ms`;
const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .sort((a, b) => b[1] - a[1])
    .map(([status, n]) => `${n} × ${status}`)
    .join(", ");

const recoveryText = ({ recovery }: PeerResult, capMs: number) =>
  recovery.recoveredMs === null
    ? `stuck (no success in ${capMs / 1000} s, ${recovery.attempts} retries, last: ${recovery.lastStatus}), ${recovery.executions} execution(s)`
    : `${(recovery.recoveredMs / 1000).toFixed(2)} s, ${recovery.attempts} retr${recovery.attempts === 1 ? "y" : "ies"}, ${recovery.executions} execution(s)`;

/** The engine's added median beside the fastest peer's, reported (issue 17's target on it is retired). None without peers (no Redis). */
export function peersSummaryRows(run: PeersRun): Row[] {
  const engine = run.results.find((result) => result.id === "engine");
  const peers = run.results.filter((result) => result.id !== "engine");
  if (!engine || peers.length === 0) return [];
  const fastest = peers.reduce((a, b) => (a.overhead.addedMs <= b.overhead.addedMs ? a : b));
  return [
    {
      case: "Engine added p50 vs the fastest peer",
      database: "PostgreSQL (+ Redis for peers)",
      instances: 1,
      result: `+${engine.overhead.addedMs.toFixed(2)} ms vs +${fastest.overhead.addedMs.toFixed(2)} ms (${fastest.id})`,
      target: "report",
      met: null,
      how: "in-process, one ledger row per call through Prisma (the engine's keys too), systems and bare side effect interleaved (see the peers section)",
    },
  ];
}

const overheadText = (overhead: Overhead) =>
  `${overhead.ratio.toFixed(2)}× (${ms(overhead.medianMs)} vs ${ms(overhead.baselineMs)}; rounds ${Math.min(...overhead.roundRatios).toFixed(2)}–${Math.max(...overhead.roundRatios).toFixed(2)}) | +${ms(overhead.addedMs)}`;

/** The comparison as a markdown section (between markers, so a later run replaces it). */
export function peersMarkdown(run: PeersRun): string {
  const { rounds, perRound, storm, recoveryCapMs } = run.calls;
  const table = [
    "| system | overhead ratio, p50 | added p50 | storm: executions | storm: answers | storm: last answer | recovery after SIGKILL | failure before commit, then retry |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...run.results.map(
      (result) =>
        `| ${result.label} | ${overheadText(result.overhead)} | ${result.storm.executions} | ${counts(result.storm.answers)} | ${ms(result.storm.lastAnswerMs)} | ${recoveryText(result, recoveryCapMs)} | ${result.failure.verdict} (${result.failure.first}, then ${result.failure.retry}; ${result.failure.executions} execution(s)) |`,
    ),
  ].join("\n");
  return `${START}
## Side by side with the peers (issue 17)

One ledger row in PostgreSQL, written through Prisma as the shop writes it, is the side effect for every system,
in the same process and the same run; the engine keeps its keys in that PostgreSQL (a claim that commits on its
own, then the side effect's transaction with the completion), the peers in the local Redis, each peer with its
README's defaults. Overhead: ${rounds} alternating rounds of ${perRound} sequential calls per system and of the bare
side effect (a transaction with the insert), fresh keys. Storm: ${storm} concurrent calls with one key, from one
process (where the engine coalesces duplicates in memory; its cross-process storms are the app-level rows above).
Recovery: a child process claims a key and is SIGKILLed inside the side effect's transaction; this process retries
every 50 ms (cap ${recoveryCapMs / 1000} s). Failure: the handler throws before its side effect, then the same key is retried.
${run.redis ? "" : "\nRedis was not reachable: the peer rows are skipped.\n"}
${table}

![Added median latency per system](peers.svg)
${END}
`;
}

/** Replaces (or appends) the peers section of latest.md and writes peers.svg. */
export async function writePeersSection(run: PeersRun, directory: string): Promise<void> {
  const file = path.join(directory, "latest.md");
  const current = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmark results\n";
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const kept =
    start >= 0 && end > start ? current.slice(0, start) + current.slice(end + END.length + 1) : current;
  writeFileSync(file, `${kept.trimEnd()}\n\n${peersMarkdown(run)}`);

  const spec: TopLevelSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: "Added median latency over one ledger row in PostgreSQL",
    width: 520,
    height: 200,
    data: {
      values: run.results.map((result) => ({
        system: result.label.split(",")[0],
        added: result.overhead.addedMs,
      })),
    },
    mark: "bar",
    encoding: {
      y: { field: "system", type: "nominal", title: null, sort: null, axis: { labelLimit: 400 } },
      x: { field: "added", type: "quantitative", title: "added p50 (ms)" },
    },
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  writeFileSync(path.join(directory, "peers.svg"), await view.toSVG());
}
