/**
 * Writes prisma/postgresql/schema.prisma from prisma/schema.prisma, the one
 * source of truth for the models: only the datasource provider and the
 * generated client's folder differ. `--check` fails if the file is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.join(here, "schema.prisma");
const target = path.join(here, "postgresql", "schema.prisma");

function replaceOnce(text: string, from: string, to: string): string {
  if (text.split(from).length !== 2)
    throw new Error(`expected exactly one ${JSON.stringify(from)} in ${source}`);
  return text.replace(from, to);
}

export function postgresqlSchema(sqliteSchema: string): string {
  let schema = replaceOnce(sqliteSchema, 'provider = "sqlite"', 'provider = "postgresql"');
  schema = replaceOnce(
    schema,
    'output       = "../server/db/generated/sqlite"',
    'output       = "../../server/db/generated/postgresql"',
  );
  return (
    "// GENERATED from ../schema.prisma by `npm run db:generate-postgresql-schema`. Do not edit:\n" +
    "// change ../schema.prisma and run the script again.\n\n" +
    schema
  );
}

const expected = postgresqlSchema(readFileSync(source, "utf8"));
if (process.argv.includes("--check")) {
  const actual = readFileSync(target, "utf8");
  if (actual !== expected) {
    console.error(`${target} is stale: run npm run db:generate-postgresql-schema`);
    process.exit(1);
  }
  console.log("The PostgreSQL schema matches prisma/schema.prisma.");
} else {
  writeFileSync(target, expected);
  console.log(`Wrote ${path.relative(process.cwd(), target)}`);
}
