import { createHash, randomUUID } from "node:crypto";
import { appendFileSync, cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT, TMP } from "~/testing/paths";
import { dropDatabase, recreateDatabase } from "~/testing/postgres-admin";
import { schemaFolderOf } from "./database-url";
import { applyMigrations, migrateDatabase } from "./migrate";

const postgres = process.env.TEST_DATABASE === "postgresql";
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** An empty database on the project's engine. */
async function emptyDatabase(): Promise<string> {
  if (postgres) {
    const name = `idem_migrate_${randomUUID().slice(0, 8)}`;
    cleanups.push(() => dropDatabase(name));
    return recreateDatabase(name);
  }
  const file = path.join(TMP, `migrate-${randomUUID()}.db`);
  cleanups.push(() => {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  });
  return `file:${file}`;
}

async function query<Row>(url: string, sql: string): Promise<Row[]> {
  if (!postgres) {
    const db = new Database(url.slice("file:".length));
    try {
      const statement = db.prepare<[], Row>(sql);
      if (statement.reader) return statement.all();
      statement.run();
      return [];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}

interface Recorded {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  applied_steps_count: number | bigint;
}
const recorded = (url: string) =>
  query<Recorded>(url, `SELECT * FROM "_prisma_migrations" ORDER BY "migration_name"`);

const tableExists = async (url: string, table: string) =>
  (
    await query(
      url,
      postgres
        ? `SELECT 1 FROM information_schema.tables WHERE table_name = '${table}'`
        : `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '${table}'`,
    )
  ).length === 1;

/** A copy of the shop's migrations for the URL's provider, to add to and change. */
function migrationsCopy(url: string): string {
  const folder = path.join(TMP, `migrations-${randomUUID()}`);
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  // The run-once migration is a symlink into packages/run-once: copied as the file it names.
  cpSync(path.join(ROOT, schemaFolderOf(url), "migrations"), folder, { recursive: true, dereference: true });
  return folder;
}

function addMigration(folder: string, name: string, script: string): void {
  mkdirSync(path.join(folder, name));
  writeFileSync(path.join(folder, name, "migration.sql"), script);
}

describe("the migration runner", () => {
  it("applies every migration in order and records each as prisma migrate deploy does", async () => {
    const url = await emptyDatabase();
    await migrateDatabase(url);

    const folder = path.join(ROOT, schemaFolderOf(url), "migrations");
    const names = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const rows = await recorded(url);
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      const script = readFileSync(path.join(folder, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(script).digest("hex"));
      expect(row.finished_at).not.toBeNull();
      expect(Number(row.applied_steps_count)).toBe(1);
    }
    expect(await tableExists(url, "Product")).toBe(true);

    await migrateDatabase(url);
    expect(await recorded(url)).toEqual(rows);
  });

  it("applies the migration folder that appears after the others", async () => {
    const url = await emptyDatabase();
    const folder = migrationsCopy(url);
    await applyMigrations(url, folder);
    const before = await recorded(url);

    addMigration(folder, "29990101000000_extra", `CREATE TABLE "Extra" ("id" TEXT PRIMARY KEY);`);
    await applyMigrations(url, folder);

    expect(await tableExists(url, "Extra")).toBe(true);
    expect((await recorded(url)).map((row) => row.migration_name)).toEqual([
      ...before.map((row) => row.migration_name),
      "29990101000000_extra",
    ]);
  });

  it("refuses a migration changed after it was applied, and accepts its line endings changed", async () => {
    const url = await emptyDatabase();
    const folder = migrationsCopy(url);
    addMigration(folder, "29990101000000_extra", `CREATE TABLE "Extra" ("id" TEXT PRIMARY KEY);\n`);
    await applyMigrations(url, folder);
    const file = path.join(folder, "29990101000000_extra", "migration.sql");

    writeFileSync(file, readFileSync(file, "utf8").replaceAll("\n", "\r\n"));
    await applyMigrations(url, folder);

    appendFileSync(file, `CREATE TABLE "Later" ("id" TEXT PRIMARY KEY);\n`);
    await expect(applyMigrations(url, folder)).rejects.toThrow(
      "the migration 29990101000000_extra was changed after it was applied",
    );
    expect(await tableExists(url, "Later")).toBe(false);
  });

  it("records a migration that fails, and applies nothing more until it is resolved", async () => {
    const url = await emptyDatabase();
    const folder = migrationsCopy(url);
    addMigration(folder, "29990101000000_broken", `CREATE TABLE "Broken" (;`);
    addMigration(folder, "29990102000000_after", `CREATE TABLE "After" ("id" TEXT PRIMARY KEY);`);

    await expect(applyMigrations(url, folder)).rejects.toThrow("the migration 29990101000000_broken failed");
    const failed = (await recorded(url)).find((row) => row.migration_name === "29990101000000_broken");
    expect(failed).toMatchObject({ finished_at: null, logs: expect.stringMatching(/syntax error/) });
    await expect(applyMigrations(url, folder)).rejects.toThrow(
      "the migration 29990101000000_broken failed earlier",
    );
    expect(await tableExists(url, "After")).toBe(false);

    // Resolved as `prisma migrate resolve --rolled-back` does, with the script fixed.
    writeFileSync(
      path.join(folder, "29990101000000_broken", "migration.sql"),
      `CREATE TABLE "Broken" ("id" TEXT);`,
    );
    await query(
      url,
      `UPDATE "_prisma_migrations" SET "rolled_back_at" = '2026-01-01T00:00:00+00:00' WHERE "finished_at" IS NULL`,
    );
    await applyMigrations(url, folder);
    expect(await tableExists(url, "After")).toBe(true);
  });
});
