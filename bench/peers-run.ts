/**
 * `npm run bench:peers`: only the peers comparison (no build, no servers);
 * replaces the peers section of bench/results/latest.md. `npm run bench`
 * runs the same comparison as its `peers` case.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { ROOT } from "../testing/paths";
import { dropDatabase, recreateDatabase } from "../testing/postgres-admin";
import { measurePeers } from "./peers";
import { peersMarkdown, peersSummaryRows, writePeersSection } from "./peers-report";
import type { PeersRun } from "./peers";

const DATABASE = "idem_bench_peers";

/** Creates its own PostgreSQL database with the app's schema, measures, drops it. */
export async function runPeers(): Promise<PeersRun> {
  const url = await recreateDatabase(DATABASE);
  try {
    execFileSync("npm", ["run", "--silent", "db:prepare"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
      stdio: "pipe",
    });
    return await measurePeers(url);
  } finally {
    await dropDatabase(DATABASE);
  }
}

export { peersMarkdown, peersSummaryRows, writePeersSection };

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, "bench/peers-run.ts")) {
  const run = await runPeers();
  await writePeersSection(run, path.join(ROOT, "bench/results"));
  console.log(peersMarkdown(run));
}
