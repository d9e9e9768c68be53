/**
 * Generates the Prisma client for both providers: Prisma generates one client
 * per provider, and the application picks one at run time by DATABASE_URL.
 * Each run needs a URL of its provider (it is not connected to).
 */
import { execFileSync } from "node:child_process";

const URLS = { sqlite: "file:./data/checkout.db", postgresql: "postgresql://localhost:5432/generate-only" };

for (const [provider, url] of Object.entries(URLS)) {
  console.log(`Generating the ${provider} client`);
  execFileSync("prisma", ["generate"], { stdio: "inherit", env: { ...process.env, DATABASE_URL: url } });
}
