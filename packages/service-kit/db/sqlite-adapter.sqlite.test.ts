import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDatabase } from "~/testing/test-database";
import type { TestDatabase } from "~/testing/test-database";
import { createDb } from "~/server/db/client";
import type { Db } from "~/server/db/client";

let database: TestDatabase;
let db: Db;
beforeEach(async () => {
  database = await createTestDatabase();
  db = createDb(database.url);
});
afterEach(async () => {
  await db.$disconnect();
  await database.drop();
});

const product = (sku: string) => ({ sku, name: sku, description: "", priceCents: 1 });

it("keeps a query issued during another request's transaction out of that transaction", async () => {
  const rolledBack = db
    .$transaction(async (tx) => {
      await tx.product.create({ data: product("inside") });
      await sleep(100);
      throw new Error("roll back");
    })
    .catch(() => "rolled back");
  await sleep(20);

  // Without the adapter's gate this write would join the open transaction,
  // read its uncommitted row, and vanish with its rollback.
  const seenMeanwhile = await db.product.findMany();
  await db.product.create({ data: product("outside") });

  expect(await rolledBack).toBe("rolled back");
  expect(seenMeanwhile).toEqual([]);
  expect((await db.product.findMany()).map((row) => row.sku)).toEqual(["outside"]);
});

it("runs the database in WAL mode with foreign keys on", async () => {
  const [journal] = await db.$queryRawUnsafe<Array<{ journal_mode: string }>>("PRAGMA journal_mode");
  const [foreignKeys] = await db.$queryRawUnsafe<Array<{ foreign_keys: bigint }>>("PRAGMA foreign_keys");
  expect(journal?.journal_mode).toBe("wal");
  expect(Number(foreignKeys?.foreign_keys)).toBe(1);
});
