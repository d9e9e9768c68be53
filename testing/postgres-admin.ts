import pg from "pg";

/** The server the PostgreSQL tests create their databases on (trust auth on this project's machines). */
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** A URL for another database on the admin URL's server. */
export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs statements on the server's maintenance database (CREATE and DROP DATABASE cannot run in a transaction). */
export async function admin(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function recreateDatabase(name: string, template?: string): Promise<string> {
  await admin(
    `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`,
    `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`,
  );
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
