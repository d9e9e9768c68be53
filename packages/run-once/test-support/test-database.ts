import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Mutex } from "async-mutex";
import Database from "better-sqlite3";
import pg from "pg";
import type { SqlClient, SqlDatabase } from "../sql-store";

/** The engine the test project runs on (vitest's projects set TEST_DATABASE), and the PostgreSQL server. */
export const POSTGRES = process.env.TEST_DATABASE === "postgresql";
const SERVER_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** A connection: a minimal client with Prisma's raw-query shape, and a way to run a script. */
export interface TestConnection {
  db: SqlDatabase<SqlClient>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** A fresh database holding the package's own table (schema/*.sql); closing it drops it. */
export interface TestDatabase extends TestConnection {
  url: string;
  /** A connection of its own, as another process would open; closed with the database. */
  connect(): TestConnection;
}

const schema = (engine: "sqlite" | "postgresql") =>
  readFileSync(path.join(import.meta.dirname, "..", "schema", `${engine}.sql`), "utf8");

/** A tagged template as one statement: `$n` or `?` placeholders, dates as ISO text (both engines compare them so). */
function statement(strings: TemplateStringsArray, values: unknown[], placeholder: (n: number) => string) {
  const text = strings.reduce((sql, part, i) => sql + placeholder(i) + part);
  return { text, values: values.map((value) => (value instanceof Date ? value.toISOString() : value)) };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const { url, open, drop } = POSTGRES ? await postgresDatabase() : sqliteDatabase();
  const connections: TestConnection[] = [];
  const connect = () => {
    const connection = open();
    connections.push(connection);
    return connection;
  };
  const first = connect();
  await first.exec(schema(POSTGRES ? "postgresql" : "sqlite"));
  return {
    ...first,
    url,
    connect,
    async close() {
      for (const connection of connections) await connection.close();
      await drop();
    },
  };
}

function sqliteDatabase() {
  const file = path.join(tmpdir(), `run-once-test-${randomUUID()}.db`);
  return {
    url: `file:${file}`,
    open: () => sqliteConnection(file),
    drop: async () => {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    },
  };
}

/**
 * SQLite through better-sqlite3 on one connection, as Prisma's adapter uses
 * it: a transaction holds the connection until it ends, so every other
 * statement waits for it (a mutex) instead of running inside it. Another
 * connection meets it at SQLite's file lock, as another process would.
 */
function sqliteConnection(file: string): TestConnection {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  const connection = new Mutex();
  const prepared = (strings: TemplateStringsArray, values: unknown[]) => {
    const { text, values: bound } = statement(strings, values, () => "?");
    const sqliteValues = bound.map((value) => (typeof value === "boolean" ? Number(value) : value));
    return { stmt: sqlite.prepare(text), sqliteValues };
  };
  const direct: SqlClient = {
    $queryRaw: <T>(strings: TemplateStringsArray, ...values: unknown[]) => {
      const { stmt, sqliteValues } = prepared(strings, values);
      return Promise.resolve(
        (stmt.reader ? stmt.all(...sqliteValues) : (stmt.run(...sqliteValues), [])) as T,
      );
    },
    $executeRaw: (strings, ...values) => {
      const { stmt, sqliteValues } = prepared(strings, values);
      return Promise.resolve(stmt.run(...sqliteValues).changes);
    },
  };
  return {
    db: {
      $queryRaw: (strings, ...values) =>
        connection.runExclusive(async () => direct.$queryRaw(strings, ...values)),
      $executeRaw: (strings, ...values) =>
        connection.runExclusive(async () => direct.$executeRaw(strings, ...values)),
      $transaction: (work) =>
        connection.runExclusive(async () => {
          sqlite.exec("BEGIN IMMEDIATE");
          try {
            const result = await work(direct);
            sqlite.exec("COMMIT");
            return result;
          } catch (error) {
            sqlite.exec("ROLLBACK");
            throw error;
          }
        }),
    },
    exec: (sql) => connection.runExclusive(() => void sqlite.exec(sql)),
    async close() {
      await connection.waitForUnlock();
      sqlite.close();
    },
  };
}

/** A database of its own on the PostgreSQL server, dropped at the end. */
async function postgresDatabase() {
  const name = `run_once_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const server = new pg.Client(SERVER_URL);
  await server.connect();
  await server.query(`CREATE DATABASE "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    open: () => postgresConnection(url.toString()),
    async drop() {
      await server.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      await server.end();
    },
  };
}

/** A node-postgres pool: each transaction on a client of its own. */
function postgresConnection(url: string): TestConnection {
  // TIMESTAMP(3) holds UTC (as Prisma writes it): read it back as UTC, whatever the machine's zone.
  const types = {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === pg.types.builtins.TIMESTAMP
        ? (text: string) => new Date(`${text}Z`)
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({ connectionString: url, types });
  // A test that kills sessions (a process "dies") ends idle ones too: not a failure of the pool's user.
  pool.on("error", () => undefined);
  const on = (client: pg.Pool | pg.PoolClient): SqlClient => ({
    $queryRaw: async <T>(strings: TemplateStringsArray, ...values: unknown[]) =>
      (await client.query(statement(strings, values, (n) => `$${n}`))).rows as T,
    $executeRaw: async (strings, ...values) =>
      (await client.query(statement(strings, values, (n) => `$${n}`))).rowCount ?? 0,
  });
  return {
    db: {
      ...on(pool),
      async $transaction(work) {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          const result = await work(on(client));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        } finally {
          client.release();
        }
      },
    },
    exec: async (sql) => void (await pool.query(sql)),
    close: () => pool.end(),
  };
}
