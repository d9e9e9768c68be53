import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { databaseProvider, redactPassword } from "./database-url";

// The repository root, where the Prisma CLI is installed and the config paths start.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PRISMA_CLI = path.join(ROOT, "node_modules/prisma/build/index.js");
const DONE = /All migrations have been successfully applied|No pending migrations to apply/;

/**
 * Applies the migrations with `prisma migrate deploy`, of the app's schema or
 * of the one another Prisma config names (the payment provider's). On PostgreSQL it
 * returns as soon as the CLI reports the result: the WebAssembly schema engine
 * leaves a 10-second timer behind there, and the CLI idles until it fires.
 * (SQLite's CLI exits at once, and must: its exit checkpoints the WAL into the
 * database file.)
 */
export function migrateDatabase(url: string, opts: { config?: string } = {}): Promise<void> {
  const stopWhenDone = databaseProvider(url) === "postgresql";
  const config = path.join(ROOT, opts.config ?? "prisma.config.ts");
  return new Promise((resolve, reject) => {
    const cli = spawn(process.execPath, [PRISMA_CLI, "migrate", "deploy", "--config", config], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (!stopWhenDone || !DONE.test(output)) return;
      resolve();
      cli.kill();
    };
    cli.stdout.on("data", collect);
    cli.stderr.on("data", collect);
    cli.on("error", reject);
    cli.on("close", (code) => {
      if (code === 0) resolve();
      else
        reject(new Error(`The migrations could not be applied to ${redactPassword(url)}: ${output.trim()}`));
    });
  });
}
