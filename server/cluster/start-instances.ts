/**
 * Starts several production instances of the app on one database, for demos
 * and tests: `npm run instances -- [count] [first port]` (default 3 instances
 * from port 3001). DATABASE_URL names the shared database; PostgreSQL is the
 * store for more than one machine. LAB_ENABLED=1 opens the fault lab on
 * them. Ctrl-C stops them all.
 */
import { resolveDatabaseUrl } from "../db/database-url";
import { env } from "../env";
import { startInstances } from "./instances";

const [count = "3", basePort = "3001"] = process.argv.slice(2);
const databaseUrl = resolveDatabaseUrl(env.DATABASE_URL);
const cluster = await startInstances({
  databaseUrl,
  count: Number(count),
  basePort: Number(basePort),
  output: "inherit",
});
console.log(`${count} instances on ${databaseUrl.replace(/\/\/[^@]*@/, "//")}:`);
for (const instance of cluster.instances) console.log(`  ${instance.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void cluster.stop().then(() => process.exit(0));
  });
}
