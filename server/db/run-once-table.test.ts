import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { TMP } from "~/testing/paths";
import { databaseUrl, dropDatabase, recreateDatabase } from "~/testing/postgres-admin";
import { createTestDatabase } from "~/testing/test-database";
import type { SchemaName } from "~/testing/test-database";

const engine = inject("databaseTemplates").engine;
/** The table's SQL as the run-once package ships it. */
const shipped = readFileSync(createRequire(import.meta.url).resolve(`run-once/schema/${engine}.sql`), "utf8");
/** Columns a migration set keeps beside the core's, on purpose. */
const OWN_COLUMNS: Record<SchemaName, string[]> = { shop: ["replayCount"], provider: [] };

type Shape = { columns: Record<string, string>; indexes: string[] };

/** The table's columns (type, nullability, default) and indexes, as the database's catalog describes them. */
async function shapeOf(url: string): Promise<Shape> {
  if (engine === "sqlite") {
    const sqlite = new Database(url.replace(/^file:/, ""), { readonly: true });
    try {
      const columns = sqlite.prepare(`PRAGMA table_info("IdempotencyKey")`).all() as Array<
        Record<"name" | "type" | "notnull" | "dflt_value" | "pk", unknown>
      >;
      const indexes = sqlite.prepare(`PRAGMA index_list("IdempotencyKey")`).all() as Array<{
        name: string;
        unique: number;
      }>;
      return {
        columns: Object.fromEntries(
          columns.map((c) => [c.name, `${c.type} ${c.notnull} ${c.dflt_value} ${c.pk}`]),
        ),
        indexes: indexes
          .filter((index) => !index.name.startsWith("sqlite_autoindex"))
          .map(
            (index) =>
              `${index.name} ${index.unique} ${JSON.stringify(sqlite.prepare(`PRAGMA index_info("${index.name}")`).all())}`,
          )
          .sort(),
      };
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client(url);
  await client.connect();
  try {
    const columns = await client.query<Record<string, string>>(
      `SELECT "column_name", "udt_name", "is_nullable", "column_default", "datetime_precision"
       FROM information_schema.columns WHERE "table_name" = 'IdempotencyKey'`,
    );
    const indexes = await client.query<{ indexdef: string }>(
      `SELECT "indexdef" FROM pg_indexes WHERE "tablename" = 'IdempotencyKey'`,
    );
    const states = await client.query<{ labels: string }>(
      `SELECT string_agg("enumlabel", ',' ORDER BY "enumsortorder") AS "labels" FROM pg_enum
       JOIN pg_type ON pg_type."oid" = "enumtypid" WHERE "typname" = 'IdempotencyKeyState'`,
    );
    return {
      columns: Object.fromEntries(
        columns.rows.map(({ column_name, ...rest }) => [column_name, JSON.stringify(rest)]),
      ),
      indexes: [...indexes.rows.map((row) => row.indexdef), `enum ${states.rows[0]?.labels}`].sort(),
    };
  } finally {
    await client.end();
  }
}

/** The shape of a database made from the shipped SQL alone. */
async function shippedShape(): Promise<Shape> {
  if (engine === "sqlite") {
    const file = path.join(TMP, `run-once-shipped-${randomUUID()}.db`);
    new Database(file).exec(shipped).close();
    try {
      return await shapeOf(`file:${file}`);
    } finally {
      rmSync(file);
    }
  }
  const name = `run_once_shipped_${randomUUID().slice(0, 8)}`;
  await recreateDatabase(name);
  try {
    const client = new pg.Client(databaseUrl(name));
    await client.connect();
    await client.query(shipped);
    await client.end();
    return await shapeOf(databaseUrl(name));
  } finally {
    await dropDatabase(name);
  }
}

describe("the run-once table, as each migration set builds it", () => {
  for (const schema of ["shop", "provider"] as const) {
    it(`${schema}: is the package's schema/${engine}.sql, plus only its own columns`, async () => {
      const database = await createTestDatabase(schema);
      try {
        const migrated = await shapeOf(database.url);
        const own = Object.keys(migrated.columns).filter((column) => OWN_COLUMNS[schema].includes(column));
        expect(own).toEqual(OWN_COLUMNS[schema]);
        for (const column of own) delete migrated.columns[column];
        expect(migrated).toEqual(await shippedShape());
      } finally {
        await database.drop();
      }
    });
  }
});
