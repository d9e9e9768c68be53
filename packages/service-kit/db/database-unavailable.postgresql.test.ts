import { setTimeout as sleep } from "node:timers/promises";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/server/db/client";
import type { Db } from "~/server/db/client";
import { PrismaClient } from "~/server/db/generated/postgresql/client";
import { createTestDatabase } from "~/testing/test-database";
import type { TestDatabase } from "~/testing/test-database";
import { isDatabaseUnavailable } from "./database-unavailable";

/** Each failure made for real, on PostgreSQL, through Prisma 7 with @prisma/adapter-pg and through pg itself. */
let database: TestDatabase;
let db: Db;
let admin: pg.Client;
let killer: pg.Client;
let adminPid: number;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url);
  admin = new pg.Client({ connectionString: database.url });
  killer = new pg.Client({ connectionString: database.url });
  await Promise.all([admin.connect(), killer.connect()]);
  adminPid = (await admin.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid ?? 0;
  await db.serverSecret.create({ data: { name: "row", value: "v" } });
});
afterAll(async () => {
  await Promise.all([admin.end(), killer.end()]);
  await db.$disconnect();
  await database.drop();
});

/** The error `work` fails with. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => expect.fail("expected the work to fail"),
    (error: unknown) => error,
  );
}

/** Runs `work` while the row is locked, and terminates its session once it waits on the lock. */
async function terminatedWhileWaiting(work: () => Promise<unknown>): Promise<unknown> {
  await admin.query("BEGIN");
  await admin.query(`SELECT * FROM "ServerSecret" WHERE "name" = 'row' FOR UPDATE`);
  const failure = failureOf(work);
  try {
    for (;;) {
      // Out of the lock's transaction: in one, pg_stat_activity is read once and kept.
      const { rowCount } = await killer.query(
        `SELECT pg_terminate_backend("pid") FROM pg_stat_activity
          WHERE "datname" = current_database() AND "wait_event_type" = 'Lock' AND "pid" <> $1`,
        [adminPid],
      );
      if (rowCount) break;
      await sleep(10);
    }
  } finally {
    await admin.query("ROLLBACK");
  }
  return failure;
}

const updateRow = (client: Pick<Db, "serverSecret">) =>
  client.serverSecret.update({ where: { name: "row" }, data: { value: "w" } });

describe("a database briefly unavailable, as each driver says it", () => {
  it("a session terminated mid-query: Prisma's P2039 with the adapter's 57P01", async () => {
    const error = await terminatedWhileWaiting(() => updateRow(db));
    expect(error).toMatchObject({
      code: "P2039",
      meta: { driverAdapterError: { cause: { code: "57P01" } } },
    });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("a session terminated in a transaction: pg's message, passed through by Prisma", async () => {
    const errors = [
      await terminatedWhileWaiting(() => db.$transaction((tx) => updateRow(tx))),
      await terminatedWhileWaiting(() =>
        db.$transaction(async (tx) => {
          await tx.$executeRaw`SELECT 1`;
          await updateRow(tx);
        }),
      ),
    ];
    for (const error of errors) expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("a raw query's session terminated: Prisma's P2010 with 57P01; pg's own DatabaseError and its next query", async () => {
    const raw = await terminatedWhileWaiting(
      () => db.$executeRaw`UPDATE "ServerSecret" SET "value" = 'x' WHERE "name" = 'row'`,
    );
    expect(raw).toMatchObject({ code: "P2010" });
    const pool = new pg.Pool({ connectionString: database.url });
    pool.on("error", () => undefined);
    const client = await pool.connect();
    client.on("error", () => undefined);
    const direct = await terminatedWhileWaiting(() =>
      client.query(`UPDATE "ServerSecret" SET "value" = 'x' WHERE "name" = 'row'`),
    );
    expect(direct).toMatchObject({ code: "57P01" });
    const after = await failureOf(() => client.query("SELECT 1"));
    client.release(true);
    await pool.end();
    for (const error of [raw, direct, after]) expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("nothing listening: Prisma's P1001, pg's ECONNREFUSED", async () => {
    const nowhere = createDb("postgresql://postgres@127.0.0.1:1/nowhere");
    const prisma = await failureOf(() => nowhere.product.findMany());
    expect(prisma).toMatchObject({ code: "P1001" });
    const direct = await failureOf(() =>
      new pg.Client("postgresql://postgres@127.0.0.1:1/nowhere").connect(),
    );
    expect(direct).toMatchObject({ code: "ECONNREFUSED" });
    for (const error of [prisma, direct]) expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("no free connection: the pool's timeout, and Prisma's P2028 for a transaction not started in time", async () => {
    const small = new PrismaClient({
      adapter: new PrismaPg({ connectionString: database.url, max: 1, connectionTimeoutMillis: 200 }),
    }) as unknown as Db;
    const errors = await small.$transaction(async (tx) => {
      await tx.product.findMany();
      return [
        await failureOf(() => small.product.findMany()),
        await failureOf(() => small.$transaction((other) => other.product.findMany(), { maxWait: 100 })),
      ];
    });
    await small.$disconnect();
    expect(errors[0]).toMatchObject({ message: "timeout exceeded when trying to connect" });
    expect(errors[1]).toMatchObject({ code: "P2028" });
    for (const error of errors) expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("a deadlock: Prisma's P2034 (40P01); a serialization failure: P2010 (40001)", async () => {
    await db.serverSecret.create({ data: { name: "other", value: "v" } });
    const bump = (tx: Pick<Db, "serverSecret">, name: string) =>
      tx.serverSecret.update({ where: { name }, data: { value: String(Math.random()) } });
    const deadlock = await failureOf(() =>
      Promise.all(
        [
          ["row", "other"],
          ["other", "row"],
        ].map(([first, second]) =>
          db.$transaction(async (tx) => {
            await bump(tx, first ?? "");
            await sleep(200);
            await bump(tx, second ?? "");
          }),
        ),
      ),
    );
    expect(deadlock).toMatchObject({ code: "P2034" });
    const serialization = await failureOf(() =>
      Promise.all(
        ["row", "other"].map((name) =>
          db.$transaction(
            async (tx) => {
              await tx.$queryRaw`SELECT count(*) FROM "ServerSecret"`;
              await sleep(200);
              await tx.$executeRaw`UPDATE "ServerSecret" SET "value" = 'z' WHERE "name" = ${name}`;
            },
            { isolationLevel: "Serializable" },
          ),
        ),
      ),
    );
    // Prisma wraps it (P2010) or, when the conflict comes at commit, throws the adapter's own error.
    const facts = serialization as {
      meta?: { driverAdapterError?: { cause?: { originalCode?: string } } };
      cause?: { originalCode?: string };
    };
    expect(facts.meta?.driverAdapterError?.cause?.originalCode ?? facts.cause?.originalCode).toBe("40001");
    for (const error of [deadlock, serialization]) expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("does not take a bug for an outage: a unique violation, a syntax error, a missing row, a TypeError", async () => {
    const errors = [
      await failureOf(() => db.serverSecret.create({ data: { name: "row", value: "v" } })),
      await failureOf(() => db.$executeRawUnsafe("SELEC 1")),
      await failureOf(() => db.serverSecret.findUniqueOrThrow({ where: { name: "absent" } })),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
    ];
    for (const error of errors) expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
