import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "~/server/db/client";
import type { Db } from "~/server/db/client";
import { createTestDatabase } from "~/testing/test-database";
import type { TestDatabase } from "~/testing/test-database";
import type { Completion } from "./execution";
import { fingerprint } from "./fingerprint";
import { PgDatabase, TransactionAbortedError, TransactionTimeoutError } from "./pg-database";
import type { PgTransaction } from "./pg-database";
import { PostgresIdempotencyStore } from "./postgres-store";
import { PostgresKeyWatcher } from "./postgres-key-watcher";
import { RunOnce } from "./run-once";

const QUIET = { warn: () => undefined, error: () => undefined };
const NO_FINAL_ERRORS = { isFinal: () => false, encode: () => null, decode: () => new Error("never stored") };

let database: TestDatabase;
let prisma: Db;
let pg: PgDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
  prisma = createDb(database.url);
  pg = new PgDatabase(database.url);
  await pg.$executeRaw`CREATE TABLE "Ledger" ("id" TEXT PRIMARY KEY, "key" TEXT NOT NULL, "at" TIMESTAMP(3))`;
});
afterEach(async () => {
  await pg.end();
  await prisma.$disconnect();
  await database.drop();
});

const rows = async () => (await prisma.$queryRaw<Array<{ id: string }>>`SELECT "id" FROM "Ledger"`).length;

describe("PgDatabase", () => {
  it("writes and reads timestamps as the UTC instants Prisma writes and reads, in any time zone of the process", async () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      const instant = new Date("2026-12-03T10:00:00.007Z");
      await pg.$executeRaw`INSERT INTO "Ledger" ("id", "key", "at") VALUES ('pg', 'k', ${instant})`;
      await prisma.$executeRaw`INSERT INTO "Ledger" ("id", "key", "at") VALUES ('prisma', 'k', ${instant})`;
      const throughPg = await pg.$queryRaw<Array<{ id: string; at: Date }>>`
        SELECT "id", "at" FROM "Ledger" ORDER BY "id"`;
      const throughPrisma = await prisma.$queryRaw<Array<{ id: string; at: Date }>>`
        SELECT "id", "at" FROM "Ledger" ORDER BY "id"`;
      expect(throughPg).toEqual([
        { id: "pg", at: instant },
        { id: "prisma", at: instant },
      ]);
      expect(throughPrisma).toEqual(throughPg);
    } finally {
      process.env.TZ = zone;
    }
  });

  it("commits what the work wrote when it returns, and rolls all of it back when it throws", async () => {
    await pg.$transaction((tx) => tx.$executeRaw`INSERT INTO "Ledger" ("id", "key") VALUES ('kept', 'k')`);
    const failed = pg.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO "Ledger" ("id", "key") VALUES ('lost', 'k')`;
      throw new Error("the work failed");
    });
    await expect(failed).rejects.toThrow("the work failed");
    expect(await rows()).toBe(1);
  });

  it("rejects, committing nothing, when the work caught the error of a statement that aborted the transaction", async () => {
    const swallowed = pg.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO "Ledger" ("id", "key") VALUES ('lost', 'k')`;
      await tx.$executeRaw`INSERT INTO "Ledger" ("id", "key") VALUES ('lost', 'k')`.catch(() => undefined);
    });
    await expect(swallowed).rejects.toBeInstanceOf(TransactionAbortedError);
    expect(await rows()).toBe(0);
  });

  it("ends a transaction still open past its timeout: its statement cancelled, its locks let go, all of it rolled back", async () => {
    const startedAt = performance.now();
    const stuck = pg.$transaction(
      async (tx) => {
        await tx.$executeRaw`INSERT INTO "Ledger" ("id", "key") VALUES ('late', 'k')`;
        await tx.$executeRaw`SELECT pg_sleep(5)`;
      },
      { timeout: 200 },
    );
    await expect(stuck).rejects.toBeInstanceOf(TransactionTimeoutError);
    // The same row again: it would wait on the uncommitted one while the sleep went on.
    await prisma.$executeRaw`INSERT INTO "Ledger" ("id", "key") VALUES ('late', 'k')`;
    expect(performance.now() - startedAt).toBeLessThan(2_500);
    expect(await rows()).toBe(1);
  });

  it("refuses a statement of a transaction that is over, which would run on a connection given back", async () => {
    let kept: PgTransaction | undefined;
    await pg.$transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.$executeRaw`INSERT INTO "Ledger" ("id", "key") VALUES ('after', 'k')`).rejects.toThrow(
      "This transaction is over",
    );
    expect(await rows()).toBe(0);
  });

  it.each<Completion>(["in-transaction", "single-transaction"])(
    "lets run-once (%s) execute once for 40 concurrent duplicates over two engines",
    async (completion) => {
      const engines = [0, 1].map(() => {
        const store = new PostgresIdempotencyStore<PgTransaction>(pg, database.url, { logger: QUIET });
        const watcher = new PostgresKeyWatcher(database.url, store, QUIET);
        return new RunOnce<PgTransaction>({ store, watcher, finalErrors: NO_FINAL_ERRORS, logger: QUIET });
      });
      try {
        const key = randomUUID();
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            engines[i % 2]!.run(
              {
                scope: { caller: "c", path: "ledger", key },
                fingerprint: fingerprint("ledger", 1),
                completion,
              },
              ({ commit }) =>
                commit(async (tx) => {
                  await tx.$executeRaw`INSERT INTO "Ledger" ("id", "key") VALUES (${randomUUID()}, ${key})`;
                  return { written: true };
                }),
            ),
          ),
        );
        expect(results.map((result) => result.outcome)).toEqual(
          Array.from({ length: 40 }, () => ({ ok: true, data: { written: true } })),
        );
        expect(await rows()).toBe(1);
      } finally {
        for (const engine of engines) await engine.close();
      }
    },
  );
});
