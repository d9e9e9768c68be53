import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "~/server/db/client";
import { gate } from "~/testing/gate";
import type { Db } from "~/server/db/client";
import { createTestDatabase } from "~/testing/test-database";
import type { TestDatabase } from "~/testing/test-database";
import type { Completion } from "./execution";
import { LeaseLostError } from "./errors";
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

  it("pipelines a single transaction: the work starts before its claim's answer, and a claim that loses fails what the work sent", async () => {
    const [owner, duplicate] = [0, 1].map(() => {
      const store = new PostgresIdempotencyStore<PgTransaction>(pg, database.url, { logger: QUIET });
      return new RunOnce<PgTransaction>({ store, finalErrors: NO_FINAL_ERRORS, logger: QUIET });
    });
    const request = {
      scope: { caller: "c", path: "ledger", key: "k" },
      fingerprint: fingerprint("ledger", 1),
      completion: "single-transaction" as const,
    };
    const insertRow = (tx: PgTransaction, id: string) =>
      tx.$executeRaw`INSERT INTO "Ledger" ("id", "key") VALUES (${id}, ${"k"})`;
    try {
      const held = gate();
      let claimed = false;
      const first = owner!.run(request, ({ commit }) =>
        commit(async (tx) => {
          await insertRow(tx, "the owner's row");
          claimed = true;
          await held.opened;
          return "the owner's";
        }),
      );
      await expect.poll(() => claimed).toBe(true);
      let started = false;
      let refusal: unknown;
      const second = duplicate!.run(request, ({ commit }) =>
        commit(async (tx) => {
          started = true;
          refusal = await insertRow(tx, "the duplicate's row").catch((error: unknown) => error);
          return "the duplicate's";
        }),
      );
      // The duplicate's claim waits on the owner's uncommitted one, and its work has already begun.
      await expect.poll(() => started).toBe(true);

      held.open();
      await expect(first).resolves.toMatchObject({ decision: "executed", outcome: { data: "the owner's" } });
      await expect(second).resolves.toMatchObject({ decision: "replayed", outcome: { data: "the owner's" } });
      // Refused by PostgreSQL: the claim's failed insert aborted the duplicate's transaction before it.
      expect(refusal).toMatchObject({ code: "25P02" });
      expect(await prisma.$queryRaw<Array<{ id: string }>>`SELECT "id" FROM "Ledger"`).toEqual([
        { id: "the owner's row" },
      ]);
    } finally {
      await owner!.close();
      await duplicate!.close();
    }
  });

  it("fails a pipelined single transaction whose completion finds no key row: nothing of the work commits", async () => {
    const store = new PostgresIdempotencyStore<PgTransaction>(pg, database.url, { logger: QUIET });
    const runOnce = new RunOnce<PgTransaction>({ store, finalErrors: NO_FINAL_ERRORS, logger: QUIET });
    try {
      const run = runOnce.run(
        {
          scope: { caller: "c", path: "ledger", key: "k" },
          fingerprint: fingerprint("ledger", 1),
          completion: "single-transaction",
        },
        ({ commit }) =>
          commit(async (tx) => {
            await tx.$executeRaw`INSERT INTO "Ledger" ("id", "key") VALUES (${"the row"}, ${"k"})`;
            // The work takes the key's row from under its own claim: the completion that follows finds none.
            await tx.$executeRaw`DELETE FROM "IdempotencyKey" WHERE "key" = ${"k"}`;
            return "written";
          }),
      );
      await expect(run).rejects.toBeInstanceOf(LeaseLostError);
      expect(await rows()).toBe(0);
      expect(await prisma.idempotencyKey.count()).toBe(0);
    } finally {
      await runOnce.close();
    }
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
