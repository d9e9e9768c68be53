/**
 * Starts several production instances of the app on one database, for demos
 * and tests: `npm run instances -- [count] [first port]` (default 3 instances
 * from port 3001), and the demo's round-robin proxy in front of them on the
 * port before the first (3000). DATABASE_URL names the shared database;
 * PostgreSQL is the store for more than one machine. LAB_ENABLED=1 opens the
 * fault lab on them. Ctrl-C stops them all.
 */
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { env } from "../env";
import { startInstances } from "./instances";
import { startRoundRobinProxy } from "./round-robin-proxy";

const [count = "3", basePort = "3001"] = process.argv.slice(2);
const databaseUrl = resolveDatabaseUrl(env.DATABASE_URL);
const cluster = await startInstances({
  databaseUrl,
  count: Number(count),
  basePort: Number(basePort),
  output: "inherit",
});
const proxy = await startRoundRobinProxy({
  targets: cluster.instances.map((instance) => instance.url),
  port: Number(basePort) - 1,
  host: "0.0.0.0",
});
console.log(`${count} instances on ${databaseUrl.replace(/\/\/[^@]*@/, "//")}:`);
for (const instance of cluster.instances) console.log(`  ${instance.url}`);
console.log(`and the round-robin proxy in front of them: ${proxy.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void Promise.all([proxy.close(), cluster.stop()]).then(() => process.exit(0));
  });
}
