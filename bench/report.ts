import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as vega from "vega";
import { compile } from "vega-lite";
import type { TopLevelSpec } from "vega-lite";

export interface Row {
  case: string;
  database: string;
  instances: number;
  result: string;
  target: string;
  /** null: reported, no target. */
  met: boolean | null;
  how: string;
}

export interface Series {
  group: string;
  x: string | number;
  y: number;
}

/** Renders a Vega-Lite chart to SVG, headless (no canvas needed for SVG). */
async function svg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  return view.toSVG();
}

/** What both charts share: the schema, a size, a title and the data. */
const frame = (title: string, values: Series[]) => ({
  $schema: "https://vega.github.io/schema/vega-lite/v5.json",
  title,
  width: 520,
  height: 260,
  data: { values },
});

export const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The range of a list of ratios, for a row's "how". */
export const spreadOf = (ratios: number[]) =>
  `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;

export const markdownTable = (header: string[], rows: string[][]) =>
  [header, header.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");

/** The rows as a Markdown table, each with its target and "met" or "missed". */
export function tableOf(rows: Row[]): string {
  const verdict = (met: boolean | null) => (met === null ? "" : met ? "met" : "**missed**");
  return markdownTable(
    ["case", "database", "instances", "result", "target", "", "how measured"],
    rows.map((row) => [
      row.case,
      row.database,
      String(row.instances),
      row.result,
      row.target,
      verdict(row.met),
      row.how,
    ]),
  );
}

/** Writes latest.md, latency.svg and store-size.svg; returns the table as printed. */
export async function writeReport(opts: {
  rows: Row[];
  latency: Series[];
  storeSize: Series[];
  /** Pictures already in `directory` (the flame graphs), shown after the charts. */
  pictures: Array<{ title: string; file: string }>;
  directory: string;
  elapsedSeconds: number;
}): Promise<string> {
  mkdirSync(opts.directory, { recursive: true });
  const table = tableOf(opts.rows);
  const markdown = `# Benchmark results

Produced by \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, in ${Math.round(
    opts.elapsedSeconds,
  )} s: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, real \`next start\`
servers on loopback, load from autocannon. Ratios and counts first: absolute times on these shared machines
are noisy, so read them as orders of magnitude.

${table}

![Latency percentiles](latency.svg)

![Keys in the store over time](store-size.svg)
${opts.pictures.map(({ title, file }) => `\n![${title}](${file})\n`).join("")}`;
  writeFileSync(path.join(opts.directory, "latest.md"), markdown);

  writeFileSync(
    path.join(opts.directory, "latency.svg"),
    await svg({
      ...frame("payments.charge latency, with and without run-once", opts.latency),
      mark: "bar",
      encoding: {
        x: { field: "x", type: "nominal", title: "percentile", sort: ["p50", "p90", "p99"] },
        xOffset: { field: "group" },
        y: { field: "y", type: "quantitative", title: "latency (ms)" },
        color: { field: "group", type: "nominal", title: null, legend: { labelLimit: 300 } },
      },
    }),
  );
  writeFileSync(
    path.join(opts.directory, "store-size.svg"),
    await svg({
      ...frame("Idempotency keys in the store under steady load (TTL 3 s)", opts.storeSize),
      mark: { type: "line", point: false },
      encoding: {
        x: { field: "x", type: "quantitative", title: "seconds" },
        y: { field: "y", type: "quantitative", title: "rows" },
        // One legend for both channels: a line's colour and its dash name the same series.
        color: { field: "group", type: "nominal", title: null, legend: { labelLimit: 300 } },
        strokeDash: { field: "group", type: "nominal", title: null },
      },
    }),
  );
  return table;
}
