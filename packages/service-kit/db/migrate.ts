import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseProvider, redactPassword, schemaFolderOf } from "./database-url";

// The repository root, where the Prisma configs and their schema folders are.
const ROOT = path.resolve(import.meta.dirname, "../../..");
/** The key `prisma migrate deploy` locks on PostgreSQL: this runner and Prisma's CLI exclude each other. */
const PRISMA_MIGRATE_LOCK = 72707369;
/** Prisma's own table, column for column, so that its CLI reads what this runner recorded. */
const MIGRATIONS_TABLE = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`,
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`,
};

interface MigrationRow {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
  logs: string | null;
}

/** One database's side of the runner: statements with `?` parameters, and a script run as Prisma runs it. */
interface MigrationTarget {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  run(script: string): Promise<void>;
  /** SQL for the current time as Prisma writes it there. */
  now: string;
  close(): Promise<void>;
}

/** Prisma's checksum of a migration script: SHA-256 in hex. */
export function checksumOf(script: string): string {
  return createHash("sha256").update(script).digest("hex");
}

/** As Prisma compares: a checkout that turned LF into CRLF (or back) still matches. */
function matchesChecksum(script: string, checksum: string): boolean {
  const variants = [script, script.replaceAll("\r\n", "\n"), script.replaceAll("\n", "\r\n")];
  return variants.some((variant) => checksumOf(variant) === checksum);
}

/** Applies the migrations of the schema beside a Prisma config, in the folder of the URL's provider. */
export function migrateDatabase(url: string, opts: { config?: string } = {}): Promise<void> {
  const serviceRoot = path.join(ROOT, path.dirname(opts.config ?? "prisma.config.ts"));
  return applyMigrations(url, path.join(serviceRoot, schemaFolderOf(url), "migrations"));
}

/** `prisma migrate deploy` without its native engine (docs/operations.md, "Migrations"). */
export async function applyMigrations(url: string, folder: string): Promise<void> {
  const migrations = readMigrations(folder);
  const target =
    databaseProvider(url) === "sqlite" ? sqliteTarget(url.slice("file:".length)) : await postgresTarget(url);
  const refuse = (why: string) => new Error(`Cannot migrate ${redactPassword(url)}: ${why}`);
  try {
    const all = await target.query<MigrationRow>(`SELECT * FROM "_prisma_migrations" ORDER BY "started_at"`);
    const rows = all.filter((row) => row.rolled_back_at === null);
    const failed = rows.find((row) => row.finished_at === null);
    if (failed) {
      throw refuse(
        `the migration ${failed.migration_name} failed earlier (${failed.logs ?? "no log"}). Repair the database, then set that row's rolled_back_at in _prisma_migrations to apply it again.`,
      );
    }
    const applied = new Map(rows.map((row) => [row.migration_name, row]));
    for (const migration of migrations) {
      const row = applied.get(migration.name);
      if (row && !matchesChecksum(migration.script, row.checksum)) {
        throw refuse(
          `the migration ${migration.name} was changed after it was applied. Restore its migration.sql and put the change in a new migration.`,
        );
      }
    }
    for (const migration of migrations.filter(({ name }) => !applied.has(name))) {
      const id = randomUUID();
      await target.query(
        `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at") VALUES (?, ?, ?, ${target.now})`,
        [id, checksumOf(migration.script), migration.name],
      );
      try {
        await target.run(migration.script);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await target.query(`UPDATE "_prisma_migrations" SET "logs" = ? WHERE "id" = ?`, [message, id]);
        throw refuse(`the migration ${migration.name} failed: ${message}`);
      }
      await target.query(
        `UPDATE "_prisma_migrations" SET "finished_at" = ${target.now}, "applied_steps_count" = 1 WHERE "id" = ?`,
        [id],
      );
    }
  } finally {
    await target.close();
  }
}

/** Every folder with a migration.sql, in name order (Prisma's order: the names start with a timestamp). */
function readMigrations(folder: string) {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const file = path.join(folder, name, "migration.sql");
      if (!existsSync(file))
        throw new Error(`The migration folder ${name} has no migration.sql (in ${folder}).`);
      return { name, script: readFileSync(file, "utf8") };
    });
}

/** SQLite: no transaction around a script, as Prisma runs it (one may turn foreign keys off). */
function sqliteTarget(file: string): MigrationTarget {
  const db = new Database(file, { timeout: 5_000 });
  db.pragma("foreign_keys = ON");
  db.exec(MIGRATIONS_TABLE.sqlite);
  return {
    query: async <T>(sql: string, params: unknown[] = []) => {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...params) as T[];
      statement.run(...params);
      return [];
    },
    run: async (script) => void db.exec(script),
    // ISO 8601 text with an explicit offset, as Prisma writes SQLite's timestamps.
    now: `strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')`,
    close: async () => void db.close(),
  };
}

/** PostgreSQL: under Prisma's advisory lock; each script one simple query, so one transaction. */
async function postgresTarget(url: string): Promise<MigrationTarget> {
  const client = new pg.Client({ connectionString: url });
  // A session dropped mid-migration fails the statement it ran; unheard, its error event would crash the process.
  client.on("error", () => undefined);
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
    await client.query(MIGRATIONS_TABLE.postgresql);
  } catch (error) {
    await client.end();
    throw error;
  }
  return {
    query: async <T>(sql: string, params: unknown[] = []) => {
      let n = 0;
      const numbered = sql.replace(/\?/g, () => `$${++n}`);
      return (await client.query(numbered, params)).rows as T[];
    },
    run: async (script) => void (await client.query(script)),
    now: "now()",
    // Ending the session releases the advisory lock.
    close: () => client.end(),
  };
}
