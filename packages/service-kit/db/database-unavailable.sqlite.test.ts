import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Db } from "~/server/db/client";
import { PrismaClient } from "~/server/db/generated/sqlite/client";
import { createTestDatabase } from "~/testing/test-database";
import type { TestDatabase } from "~/testing/test-database";
import { isDatabaseUnavailable } from "./database-unavailable";

let database: TestDatabase;
let holder: Database.Database;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  const file = database.url.slice("file:".length);
  holder = new Database(file);
  db = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: database.url, timeout: 50 }) }) as Db;
});
afterAll(async () => {
  holder.close();
  await db.$disconnect();
  await database.drop();
});

const failureOf = (work: () => Promise<unknown>) =>
  work().then(
    () => expect.fail("expected the work to fail"),
    (error: unknown) => error,
  );

it("SQLite busy: Prisma's P1008 (a write, a transaction) or P2010 (raw), better-sqlite3's SQLITE_BUSY", async () => {
  // Another process's write lock, held: every other writer waits out its busy timeout.
  holder.exec("BEGIN EXCLUSIVE");
  const write = await failureOf(() => db.serverSecret.create({ data: { name: "a", value: "b" } }));
  expect(write).toMatchObject({
    code: "P1008",
    meta: { driverAdapterError: { cause: { originalCode: "SQLITE_BUSY" } } },
  });
  const errors = [
    write,
    await failureOf(() =>
      db.$transaction((tx) => tx.serverSecret.create({ data: { name: "a", value: "b" } })),
    ),
    await failureOf(() => db.$executeRaw`INSERT INTO "ServerSecret" ("name", "value") VALUES ('a', 'b')`),
    await failureOf(async () => {
      const direct = new Database(database.url.slice("file:".length), { timeout: 50 });
      try {
        direct.exec(`INSERT INTO "ServerSecret" ("name", "value") VALUES ('a', 'b')`);
      } finally {
        direct.close();
      }
    }),
  ];
  holder.exec("ROLLBACK");
  for (const error of errors) expect(isDatabaseUnavailable(error)).toBe(true);
});

it("does not take a bug for an outage: a missing table, a TypeError", async () => {
  const errors = [
    await failureOf(() => db.$queryRawUnsafe(`SELECT * FROM "Nowhere"`)),
    new TypeError("Cannot read properties of undefined (reading 'id')"),
  ];
  for (const error of errors) expect(isDatabaseUnavailable(error)).toBe(false);
});
