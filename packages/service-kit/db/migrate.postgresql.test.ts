import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { dropDatabase, recreateDatabase } from "~/testing/postgres-admin";
import { migrateDatabase } from "./migrate";

const name = `idem_migrate_${randomUUID().slice(0, 8)}`;
afterEach(() => dropDatabase(name));

it("lets instances that start together apply each migration once (Prisma's advisory lock)", async () => {
  const url = await recreateDatabase(name);
  await Promise.all([migrateDatabase(url), migrateDatabase(url), migrateDatabase(url)]);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ migration_name: string; finished_at: Date | null }>(
    `SELECT "migration_name", "finished_at" FROM "_prisma_migrations"`,
  );
  await client.end();
  expect(rows.length).toBeGreaterThan(0);
  expect(new Set(rows.map((row) => row.migration_name)).size).toBe(rows.length);
  expect(rows.every((row) => row.finished_at !== null)).toBe(true);
});
