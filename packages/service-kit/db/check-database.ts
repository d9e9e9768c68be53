import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseProvider, redactPassword } from "./database-url";

/** The database a URL names cannot be used; the message is one sentence that names the URL and why. */
export class UnusableDatabaseError extends Error {
  constructor(url: string, cause: string) {
    super(`Cannot use the database at ${redactPassword(url)}: ${cause}.`);
    this.name = "UnusableDatabaseError";
  }
}

/** Says in one sentence why a database cannot be used, where the Prisma CLI says "External error". */
export async function checkDatabase(url: string): Promise<void> {
  if (databaseProvider(url) === "sqlite") checkSqlite(url);
  else await checkPostgres(url);
}

function checkSqlite(url: string): void {
  const file = url.slice("file:".length);
  const folder = path.dirname(file);
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new UnusableDatabaseError(url, `its folder ${folder} cannot be created (${errorCode(error)})`);
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: 5_000 });
  } catch (error) {
    throw new UnusableDatabaseError(url, `the file ${file} cannot be opened (${errorCode(error)})`);
  }
  try {
    // A write that changes nothing: SQLite opens a file it may not write read-only, without a word.
    db.pragma(`user_version = ${Number(db.pragma("user_version", { simple: true }))}`);
  } catch (error) {
    const cause =
      errorCode(error) === "SQLITE_READONLY" ? "is read-only" : `cannot be written (${errorCode(error)})`;
    throw new UnusableDatabaseError(url, `the file ${file} ${cause}`);
  } finally {
    db.close();
  }
}

async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // A connection that fails after connecting reports here instead of crashing the process.
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ readOnly: boolean }>(
      `SELECT pg_is_in_recovery() OR current_setting('default_transaction_read_only') = 'on' AS "readOnly"`,
    );
    if (rows[0]?.readOnly) throw new UnusableDatabaseError(url, "the server accepts only reads");
  } catch (error) {
    if (error instanceof UnusableDatabaseError) throw error;
    throw new UnusableDatabaseError(url, describePostgresError(url, error));
  } finally {
    await client.end().catch(() => undefined);
  }
}

function describePostgresError(url: string, error: unknown): string {
  const { hostname, port, pathname } = new URL(url);
  const address = `${hostname}:${port || "5432"}`;
  switch (errorCode(error)) {
    case "ECONNREFUSED":
      return `nothing accepts connections at ${address} (is PostgreSQL running?)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host ${hostname} is unknown`;
    case "3D000":
      return `the database ${pathname.slice(1)} does not exist (createdb -h ${hostname} ${pathname.slice(1)})`;
    case "28P01":
    case "28000":
      return `the server refused the credentials (${messageOf(error)})`;
    default:
      return `${address} did not answer as expected (${messageOf(error)})`;
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : messageOf(error);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
