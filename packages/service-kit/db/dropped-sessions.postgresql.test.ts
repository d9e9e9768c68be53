import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Db } from "~/server/db/client";
import { PrismaClient as PostgresqlClient } from "~/server/db/generated/postgresql/client";
import { PrismaClient as SqliteClient } from "~/server/db/generated/sqlite/client";
import { createTestDatabase } from "~/testing/test-database";
import type { TestDatabase } from "~/testing/test-database";
import { openDatabase } from "./open-database";

/** The application's pool when the server drops its sessions: no unhandled `error` event, one line per session. */
let database: TestDatabase;
let killer: pg.Client;
const logger = { warn: vi.fn() };
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  killer = new pg.Client({ connectionString: database.url });
  await killer.connect();
  db = openDatabase<Db>(database.url, { sqlite: SqliteClient, postgresql: PostgresqlClient }, { logger });
});
afterAll(async () => {
  await killer.end();
  await db.$disconnect();
  await database.drop();
});

const terminate = (where: string, params: unknown[] = []) =>
  killer.query(
    `SELECT pg_terminate_backend("pid") FROM pg_stat_activity
      WHERE "datname" = current_database() AND "pid" <> pg_backend_pid() AND ${where}`,
    params,
  );

async function untilLogged(count: number): Promise<void> {
  for (let waited = 0; logger.warn.mock.calls.length < count && waited < 5_000; waited += 20) await sleep(20);
  await sleep(200); // and no more than that
}

it("logs each idle session the server drops once, and opens another", async () => {
  logger.warn.mockClear();
  // Three sessions at once, then idle in the pool.
  await Promise.all([0, 1, 2].map(() => db.$queryRaw`SELECT 1 FROM pg_sleep(0.2)`));
  const { rowCount } = await terminate(`"state" = 'idle'`);
  expect(rowCount).toBe(3);

  await untilLogged(3);
  expect(logger.warn.mock.calls.map(([, message]) => message)).toEqual(
    Array(3).fill("database: a session was dropped"),
  );
  expect(await db.product.count()).toBe(0);
});

it("logs a transaction's session dropped once; the transaction fails", async () => {
  logger.warn.mockClear();
  const failed = db.$transaction(async (tx) => {
    const [{ pid }] = await tx.$queryRaw<[{ pid: number }]>`SELECT pg_backend_pid() AS pid`;
    await terminate(`"pid" = $1`, [pid]);
    await sleep(200);
    await tx.product.count();
  });
  await expect(failed).rejects.toThrow();

  await untilLogged(1);
  expect(logger.warn.mock.calls.map(([, message]) => message)).toEqual(["database: a session was dropped"]);
  expect(await db.product.count()).toBe(0);
});
