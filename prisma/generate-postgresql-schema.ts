/** Writes each SQLite schema's PostgreSQL twin; `--check` fails if a twin is stale. */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SCHEMA_FOLDERS = ["prisma", "provider/prisma"];

function replaceOnce(text: string, from: RegExp, to: string, source: string): string {
  if ((text.match(new RegExp(from, "g")) ?? []).length !== 1) {
    throw new Error(`expected exactly one ${from} in ${source}`);
  }
  return text.replace(from, to);
}

export function postgresqlSchema(sqliteSchema: string, source: string): string {
  let schema = replaceOnce(sqliteSchema, /provider = "sqlite"/, 'provider = "postgresql"', source);
  // The twin sits one folder deeper, and its client goes to generated/postgresql.
  schema = replaceOnce(
    schema,
    /output( +)= "([./]*)(.*)\/generated\/sqlite"/,
    'output$1= "../$2$3/generated/postgresql"',
    source,
  );
  return (
    "// GENERATED from ../schema.prisma by `npm run db:generate-postgresql-schema`. Do not edit:\n" +
    "// change ../schema.prisma and run the script again.\n\n" +
    schema
  );
}

let stale = false;
for (const folder of SCHEMA_FOLDERS) {
  const source = path.join(root, folder, "schema.prisma");
  const target = path.join(root, folder, "postgresql", "schema.prisma");
  const expected = postgresqlSchema(readFileSync(source, "utf8"), source);
  if (!process.argv.includes("--check")) {
    writeFileSync(target, expected);
    console.log(`Wrote ${path.relative(process.cwd(), target)}`);
  } else if (readFileSync(target, "utf8") !== expected) {
    console.error(`${target} is stale: run npm run db:generate-postgresql-schema`);
    stale = true;
  }
}
if (process.argv.includes("--check")) {
  if (stale) process.exit(1);
  console.log("The PostgreSQL schemas match their SQLite sources.");
}
