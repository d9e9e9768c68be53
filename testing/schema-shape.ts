/**
 * A database schema's shape, as a Prisma schema declares it and as a migrated
 * database has it: tables, columns (type, NOT NULL), primary keys, unique and
 * plain indexes, foreign keys with their ON DELETE. Prisma 7's CLI cannot diff
 * them here (its schema engine is native and cannot be downloaded), so the
 * migrations' test compares the two shapes; the schema is read by Prisma's own
 * parser, @prisma/prisma-schema-wasm. Defaults are not compared.
 */
import { readFileSync } from "node:fs";
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseProvider } from "service-kit/db/database-url";

export interface TableShape {
  columns: Record<string, { type: string; notNull: boolean }>;
  primaryKey: string[];
  uniques: string[][];
  indexes: string[][];
  foreignKeys: Array<{ columns: string[]; table: string; onDelete: string }>;
}
export type SchemaShape = Record<string, TableShape>;

/** The column type Prisma's migrations write for a scalar type, per provider. */
const COLUMN_TYPES: Record<string, { sqlite: string; postgresql: string }> = {
  String: { sqlite: "TEXT", postgresql: "text" },
  Int: { sqlite: "INTEGER", postgresql: "integer" },
  BigInt: { sqlite: "BIGINT", postgresql: "bigint" },
  Float: { sqlite: "REAL", postgresql: "double precision" },
  Boolean: { sqlite: "BOOLEAN", postgresql: "boolean" },
  DateTime: { sqlite: "DATETIME", postgresql: "timestamp(3)" },
  Json: { sqlite: "JSONB", postgresql: "jsonb" },
  Bytes: { sqlite: "BLOB", postgresql: "bytea" },
};
const PG_ON_DELETE: Record<string, string> = {
  a: "NO ACTION",
  r: "RESTRICT",
  c: "CASCADE",
  n: "SET NULL",
  d: "SET DEFAULT",
};
const PRISMA_ON_DELETE: Record<string, string> = {
  Cascade: "CASCADE",
  Restrict: "RESTRICT",
  NoAction: "NO ACTION",
  SetNull: "SET NULL",
  SetDefault: "SET DEFAULT",
};

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "enum" | "object";
  type: string;
  isRequired: boolean;
  relationFromFields?: string[];
  relationOnDelete?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  fields: Array<{ name: string }>;
}

const byColumns = <T extends string[] | { columns: string[] }>(lists: T[]) => {
  const key = (item: T) => (Array.isArray(item) ? item : item.columns).join();
  return [...lists].sort((a, b) => key(a).localeCompare(key(b)));
};

/** The shape a Prisma schema file declares, for a provider. */
export function shapeOfSchema(schemaFile: string, provider: "sqlite" | "postgresql"): SchemaShape {
  const { datamodel } = JSON.parse(
    get_dmmf(JSON.stringify({ prismaSchema: [["schema.prisma", readFileSync(schemaFile, "utf8")]] })),
  ) as { datamodel: { models: DmmfModel[]; indexes: DmmfIndex[] } };
  const tableOf = (model: string) => {
    const found = datamodel.models.find(({ name }) => name === model)!;
    return found.dbName ?? found.name;
  };
  const shape: SchemaShape = {};
  for (const model of datamodel.models) {
    const columnOf = (field: string) => {
      const found = model.fields.find(({ name }) => name === field)!;
      return found.dbName ?? found.name;
    };
    const indexes = (type: DmmfIndex["type"]) =>
      datamodel.indexes
        .filter((index) => index.model === model.name && index.type === type)
        .map((index) => index.fields.map((field) => columnOf(field.name)));
    const columns: TableShape["columns"] = {};
    for (const field of model.fields.filter(({ kind }) => kind !== "object")) {
      const type =
        field.kind === "enum"
          ? provider === "sqlite"
            ? "TEXT"
            : field.type
          : COLUMN_TYPES[field.type]?.[provider];
      if (!type) throw new Error(`No column type known for ${model.name}.${field.name} (${field.type})`);
      columns[field.dbName ?? field.name] = { type, notNull: field.isRequired };
    }
    shape[model.dbName ?? model.name] = {
      columns,
      primaryKey: indexes("id")[0] ?? [],
      uniques: byColumns(indexes("unique")),
      indexes: byColumns(indexes("normal")),
      foreignKeys: byColumns(
        model.fields
          .filter((field) => field.kind === "object" && field.relationFromFields?.length)
          .map((field) => {
            const from = field.relationFromFields!.map(columnOf);
            const required = from.every((column) => columns[column]!.notNull);
            const onDelete = field.relationOnDelete ?? (required ? "Restrict" : "SetNull");
            return { columns: from, table: tableOf(field.type), onDelete: PRISMA_ON_DELETE[onDelete]! };
          }),
      ),
    };
  }
  return shape;
}

/** The shape of a migrated database, `_prisma_migrations` left out. */
export async function shapeOfDatabase(url: string): Promise<SchemaShape> {
  return databaseProvider(url) === "sqlite" ? shapeOfSqlite(url.slice("file:".length)) : shapeOfPostgres(url);
}

function shapeOfSqlite(file: string): SchemaShape {
  const db = new Database(file, { readonly: true });
  try {
    const all = <Row>(sql: string) => db.prepare<[], Row>(sql).all();
    const tables = all<{ name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'`,
    );
    const shape: SchemaShape = {};
    for (const { name } of tables) {
      const quoted = `"${name}"`;
      const info = all<{ name: string; type: string; notnull: number; pk: number }>(
        `PRAGMA table_info(${quoted})`,
      );
      const indexList = all<{ name: string; unique: number; origin: string }>(`PRAGMA index_list(${quoted})`);
      const columnsOf = (index: string) =>
        all<{ name: string }>(`PRAGMA index_info("${index}")`).map((column) => column.name);
      const keys = all<{ id: number; table: string; from: string; on_delete: string }>(
        `PRAGMA foreign_key_list(${quoted})`,
      );
      shape[name] = {
        columns: Object.fromEntries(
          // An INTEGER PRIMARY KEY is NOT NULL without saying so.
          info.map((column) => [
            column.name,
            { type: column.type, notNull: column.notnull === 1 || column.pk > 0 },
          ]),
        ),
        primaryKey: info
          .filter((column) => column.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((column) => column.name),
        uniques: byColumns(
          indexList
            .filter((index) => index.unique && index.origin !== "pk")
            .map((index) => columnsOf(index.name)),
        ),
        indexes: byColumns(indexList.filter((index) => !index.unique).map((index) => columnsOf(index.name))),
        foreignKeys: byColumns(
          [...new Set(keys.map((key) => key.id))].map((id) => {
            const parts = keys.filter((key) => key.id === id);
            return {
              columns: parts.map((key) => key.from),
              table: parts[0]!.table,
              onDelete: parts[0]!.on_delete,
            };
          }),
        ),
      };
    }
    return shape;
  } finally {
    db.close();
  }
}

async function shapeOfPostgres(url: string): Promise<SchemaShape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = async <Row extends pg.QueryResultRow>(sql: string) => (await client.query<Row>(sql)).rows;
    const columns = await rows<{
      table: string;
      column: string;
      data_type: string;
      udt_name: string;
      precision: number | null;
      nullable: string;
    }>(`SELECT table_name AS "table", column_name AS "column", data_type, udt_name,
               datetime_precision AS "precision", is_nullable AS nullable
        FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations'`);
    const indexes = await rows<{ table: string; primary: boolean; unique: boolean; columns: string[] }>(
      `SELECT t.relname AS "table", ix.indisprimary AS "primary", ix.indisunique AS "unique",
              array_agg(a.attname::text ORDER BY k.ord) AS columns
       FROM pg_index ix
       JOIN pg_class t ON t.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
       CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
       GROUP BY ix.indexrelid, t.relname, ix.indisprimary, ix.indisunique`,
    );
    const keys = await rows<{ table: string; referenced: string; on_delete: string; columns: string[] }>(
      `SELECT t.relname AS "table", r.relname AS referenced, c.confdeltype AS on_delete,
              array_agg(a.attname::text ORDER BY k.ord) AS columns
       FROM pg_constraint c
       JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
       CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
       WHERE c.contype = 'f'
       GROUP BY c.oid, t.relname, r.relname, c.confdeltype`,
    );
    const shape: SchemaShape = {};
    for (const table of [...new Set(columns.map((column) => column.table))]) {
      const of = <Row extends { table: string }>(list: Row[]) => list.filter((row) => row.table === table);
      shape[table] = {
        columns: Object.fromEntries(
          of(columns).map((column) => [
            column.column,
            {
              type:
                column.data_type === "USER-DEFINED"
                  ? column.udt_name
                  : column.data_type.startsWith("timestamp")
                    ? `timestamp(${column.precision})`
                    : column.data_type,
              notNull: column.nullable === "NO",
            },
          ]),
        ),
        primaryKey: of(indexes).find((index) => index.primary)?.columns ?? [],
        uniques: byColumns(
          of(indexes)
            .filter((index) => index.unique && !index.primary)
            .map((index) => index.columns),
        ),
        indexes: byColumns(
          of(indexes)
            .filter((index) => !index.unique)
            .map((index) => index.columns),
        ),
        foreignKeys: byColumns(
          of(keys).map((key) => ({
            columns: key.columns,
            table: key.referenced,
            onDelete: PG_ON_DELETE[key.on_delete]!,
          })),
        ),
      };
    }
    return shape;
  } finally {
    await client.end();
  }
}
