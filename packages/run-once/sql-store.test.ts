import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { createDb } from "~/server/db/client";
import type { Db } from "~/server/db/client";
import { createTestDatabase } from "~/testing/test-database";
import type { TestDatabase } from "~/testing/test-database";
import { LeaseLostError } from "./errors";
import { PgDatabase } from "./pg-database";
import { PostgresIdempotencyStore } from "./postgres-store";
import { SqlIdempotencyStore } from "./sql-store";
import type { SqlClient } from "./sql-store";
import type { Claim, ClaimTerms, KeyRecord } from "./types";

const scope = { caller: "session-1", path: "payments.charge", key: "key-1" };
const success = { ok: true as const, data: { charged: 1 } };

/** The drivers the store runs on: Prisma on both databases, and node-postgres (PgDatabase) on PostgreSQL. */
const DRIVERS =
  inject("databaseTemplates").engine === "postgresql" ? (["prisma", "pg"] as const) : (["prisma"] as const);

let database: TestDatabase;
/** Prisma, to look at the rows whatever the store writes through. */
let db: Db;
let pgDatabase: PgDatabase | undefined;
let store: SqlIdempotencyStore<SqlClient>;
const terms = (now = new Date()): ClaimTerms => ({ fingerprint: "fp", now, leaseMs: 1_000, ttlMs: 60_000 });
const at = (now = new Date()) => ({ now, ttlMs: 60_000 });

function useStoreThrough(driver: (typeof DRIVERS)[number]) {
  beforeEach(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    if (inject("databaseTemplates").engine !== "postgresql") {
      store = new SqlIdempotencyStore(db);
      return;
    }
    pgDatabase = driver === "pg" ? new PgDatabase(database.url) : undefined;
    store = new PostgresIdempotencyStore<SqlClient>(pgDatabase ?? db, database.url, { logger: console });
  });
  afterEach(async () => {
    await store.close();
    await pgDatabase?.end();
    await db.$disconnect();
    await database.drop();
  });
}

async function claimed(): Promise<Claim> {
  const result = await store.claim(scope, terms());
  if (!("claimed" in result)) throw new Error("expected a claim");
  return result.claimed;
}

async function existing(): Promise<KeyRecord> {
  const result = await store.claim(scope, terms());
  if (!("existing" in result)) throw new Error("expected an existing key");
  return result.existing;
}

describe.each(DRIVERS)("SqlIdempotencyStore through %s", (driver) => {
  useStoreThrough(driver);

  it("lets exactly one of many concurrent claims win", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => store.claim(scope, terms())));
    expect(results.filter((result) => "claimed" in result)).toHaveLength(1);
  });

  it("stores the claim's lease and retention as given, to the millisecond", async () => {
    const now = new Date("2026-12-02T12:00:00.123Z");
    await store.claim(scope, terms(now));
    expect(await store.read(scope)).toMatchObject({
      state: "IN_PROGRESS",
      fingerprint: "fp",
      lockedUntil: new Date("2026-12-02T12:00:01.123Z"),
      expiresAt: new Date("2026-12-02T12:01:00.123Z"),
    });
  });

  it("refuses a takeover when the owner completed after the row was read, though its token is unchanged", async () => {
    const claim = await claimed();
    const seen = await existing();
    await store.complete(claim, success, at());
    await store.relinquish(claim);
    expect(await store.takeOver(scope, seen, terms())).toBeNull();
    expect((await store.read(scope))?.outcome).toEqual(success);
  });

  it("lets one of two concurrent takeovers win", async () => {
    // The owner is gone: on PostgreSQL, its session let go of the key's lock.
    await store.relinquish(await claimed());
    const seen = await existing();
    const results = await Promise.all([
      store.takeOver(scope, seen, terms()),
      store.takeOver(scope, seen, terms()),
    ]);
    expect(results.filter((result) => result !== null)).toHaveLength(1);
  });

  it("fences off the completion and the release of a claim that was taken over", async () => {
    const stale = await claimed();
    await store.relinquish(stale);
    const fresh = await store.takeOver(scope, await existing(), terms());
    expect(fresh).not.toBeNull();
    await expect(store.complete(stale, success, at())).rejects.toBeInstanceOf(LeaseLostError);
    expect(await store.release(stale)).toBe(false);
    expect(await store.read(scope)).toMatchObject({ state: "IN_PROGRESS", token: fresh?.token });
  });

  it("does not release a completed key", async () => {
    const claim = await claimed();
    await store.complete(claim, success, at());
    expect(await store.release(claim)).toBe(false);
    expect((await store.read(scope))?.state).toBe("COMPLETED");
  });

  it("sweeps completed keys past retention and claims abandoned before the given instant, and only those", async () => {
    const longAgo = new Date(Date.now() - 120_000);
    const claim = await claimed();
    await store.complete(claim, success, at(longAgo));
    await store.claim({ ...scope, key: "abandoned" }, terms(longAgo));
    await store.claim({ ...scope, key: "lease-just-over" }, terms(new Date(Date.now() - 2_000)));
    await store.claim({ ...scope, key: "live" }, terms());
    expect(await store.sweep(new Date(), new Date(Date.now() - 60_000))).toBe(2);
    expect((await db.idempotencyKey.findMany({ orderBy: { key: "asc" } })).map((row) => row.key)).toEqual([
      "lease-just-over",
      "live",
    ]);
  });

  it("keeps dates to the millisecond whatever the driver returns them as", async () => {
    const claim = await claimed();
    const completedAt = new Date("2026-12-03T10:00:00.007Z");
    await store.complete(claim, success, at(completedAt));
    expect((await store.read(scope))?.expiresAt).toEqual(new Date("2026-12-03T10:01:00.007Z"));
    expect(await store.view(scope.caller, scope.path, [scope.key])).toEqual([
      {
        key: "key-1",
        state: "completed",
        replayCount: 0,
        lockedUntil: expect.any(Date),
        expiresAt: new Date("2026-12-03T10:01:00.007Z"),
      },
    ]);
  });
});
