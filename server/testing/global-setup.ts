import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { ROOT, SQLITE_TEMPLATE, TMP } from "./paths";

/**
 * Migrates a template database once per run with the real migrations
 * (prisma migrate deploy); each test copies it instead of migrating again.
 */
export default function setup() {
  mkdirSync(TMP, { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(SQLITE_TEMPLATE + suffix, { force: true });
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `file:${SQLITE_TEMPLATE}` },
    stdio: "pipe",
  });
}
