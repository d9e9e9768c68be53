import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LeaseLostError } from "./errors";
import { PostgresIdempotencyStore } from "./postgres-store";
import { SqlIdempotencyStore } from "./sql-store";
import type { SqlClient } from "./sql-store";
import { POSTGRES, createTestDatabase } from "./test-support/test-database";
import type { TestDatabase } from "./test-support/test-database";
import type { Claim, ClaimTerms, KeyRecord } from "./types";

const scope = { caller: "session-1", path: "payments.charge", key: "key-1" };
const success = { ok: true as const, data: { charged: 1 } };

let database: TestDatabase;
let store: SqlIdempotencyStore<SqlClient>;
const terms = (now = new Date()): ClaimTerms => ({ fingerprint: "fp", now, leaseMs: 1_000, ttlMs: 60_000 });

beforeEach(async () => {
  database = await createTestDatabase();
  store = POSTGRES
    ? new PostgresIdempotencyStore(database.db, database.url, { logger: console })
    : new SqlIdempotencyStore(database.db);
});
afterEach(async () => {
  if (store instanceof PostgresIdempotencyStore) await store.close();
  await database.close();
});

/** Completes the key in a transaction of its own, as an execution's commit() does. */
const complete = (claim: Claim, now = new Date()) =>
  store.transaction((tx) => store.complete(claim, success, { now, ttlMs: 60_000 }, tx), { maxWaitMs: 1_000 });

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

describe(POSTGRES ? "PostgresIdempotencyStore" : "SqlIdempotencyStore", () => {
  it("lets exactly one of many concurrent claims win", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => store.claim(scope, terms())));
    expect(results.filter((result) => "claimed" in result)).toHaveLength(1);
  });

  it("stores the claim's lease and retention as given, to the millisecond", async () => {
    const now = new Date("2026-12-02T12:00:00.123Z");
    await store.claim(scope, terms(now));
    expect(await store.read(scope)).toMatchObject({
      state: "in_progress",
      fingerprint: "fp",
      lockedUntil: new Date("2026-12-02T12:00:01.123Z"),
      expiresAt: new Date("2026-12-02T12:01:00.123Z"),
    });
  });

  it("refuses a takeover when the owner completed after the row was read, though its token is unchanged", async () => {
    const claim = await claimed();
    const seen = await existing();
    await complete(claim);
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
    await expect(complete(stale)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await store.release(stale)).toBe(false);
    expect(await store.read(scope)).toMatchObject({ state: "in_progress", token: fresh?.token });
  });

  it("does not release a completed key", async () => {
    const claim = await claimed();
    await complete(claim);
    expect(await store.release(claim)).toBe(false);
    expect((await store.read(scope))?.state).toBe("completed");
  });

  it("sweeps completed keys past retention and claims abandoned before the given instant, and only those", async () => {
    const longAgo = new Date(Date.now() - 120_000);
    const claim = await claimed();
    await complete(claim, longAgo);
    await store.claim({ ...scope, key: "abandoned" }, terms(longAgo));
    await store.claim({ ...scope, key: "lease-just-over" }, terms(new Date(Date.now() - 2_000)));
    await store.claim({ ...scope, key: "live" }, terms());
    expect(await store.sweep(new Date(), new Date(Date.now() - 60_000))).toBe(2);
    const rows = await database.db.$queryRaw<
      Array<{ key: string }>
    >`SELECT "key" FROM "IdempotencyKey" ORDER BY "key"`;
    expect(rows.map((row) => row.key)).toEqual(["lease-just-over", "live"]);
  });

  it("keeps dates to the millisecond", async () => {
    const claim = await claimed();
    await complete(claim, new Date("2026-12-03T10:00:00.007Z"));
    expect((await store.read(scope))?.expiresAt).toEqual(new Date("2026-12-03T10:01:00.007Z"));
  });
});
