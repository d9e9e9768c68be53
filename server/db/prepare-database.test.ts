import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT, TMP } from "~/testing/paths";
import { admin, databaseUrl, dropDatabase } from "~/testing/postgres-admin";
import { createDb } from "./client";

const run = promisify(execFile);

/** `npm run db:prepare` as `npm start` runs it; resolves with its exit code and output. */
async function prepare(databaseUrlValue: string) {
  try {
    const { stdout, stderr } = await run("npm", ["run", "--silent", "db:prepare"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrlValue },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("npm run db:prepare", () => {
  it("creates a SQLite database in a folder that does not exist yet, migrated and seeded", async () => {
    const folder = path.join(TMP, `fresh-${randomUUID()}`, "data");
    cleanups.push(() => rmSync(path.dirname(folder), { recursive: true, force: true }));
    const result = await prepare(`file:${path.join(folder, "checkout.db")}`);

    expect(result).toMatchObject({ code: 0, stderr: "" });
    const db = createDb(`file:${path.join(folder, "checkout.db")}`);
    cleanups.push(() => db.$disconnect());
    expect(await db.product.count()).toBeGreaterThan(0);
  });

  it("creates the schema on an empty PostgreSQL database and seeds it", async () => {
    const name = `idem_prepare_${randomUUID().slice(0, 8)}`;
    await admin(`CREATE DATABASE "${name}"`);
    cleanups.push(() => dropDatabase(name));
    const result = await prepare(databaseUrl(name));

    expect(result).toMatchObject({ code: 0, stderr: "" });
    const db = createDb(databaseUrl(name));
    cleanups.push(() => db.$disconnect());
    expect(await db.product.count()).toBeGreaterThan(0);
  });

  it("stops with one sentence naming the URL and the cause, not Prisma's 'External error'", async () => {
    const result = await prepare("file:/dev/null/data/checkout.db");
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim()).toBe(
      "Cannot use the database at file:/dev/null/data/checkout.db: its folder /dev/null/data cannot be created (ENOTDIR).",
    );
  });

  it("refuses to start on a database whose applied migration differs from its file, in one sentence", async () => {
    const folder = path.join(TMP, `changed-${randomUUID()}`);
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const url = `file:${path.join(folder, "checkout.db")}`;
    expect(await prepare(url)).toMatchObject({ code: 0 });
    // What the database records when a migration.sql was edited after it was applied.
    const db = new Database(path.join(folder, "checkout.db"));
    db.prepare(
      `UPDATE "_prisma_migrations" SET "checksum" = 'edited' WHERE "migration_name" = '20261202000000_init'`,
    ).run();
    db.close();

    const result = await prepare(url);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim()).toBe(
      `Cannot migrate ${url}: the migration 20261202000000_init was changed after it was applied. Restore its migration.sql and put the change in a new migration.`,
    );
  });

  it("rejects a URL of another kind in one line", async () => {
    const result = await prepare("mysql://localhost/shop");
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim()).toBe(
      "Invalid environment: DATABASE_URL: must be a file: URL (SQLite) or a postgresql:// URL.",
    );
  });
});
