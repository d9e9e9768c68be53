import { afterEach, describe, expect, it } from "vitest";
import { gate } from "~/testing/gate";
import { CALLER, Declined, settle } from "~/testing/run-once-harness";
import {
  createLedgerHarness,
  ledgerFingerprint,
  startOwnerProcess,
} from "~/testing/single-transaction-ledger";
import type { LedgerHarness } from "~/testing/single-transaction-ledger";
import { CommitMissingError, KeyReusedError } from "./errors";

let harnesses: LedgerHarness[] = [];
afterEach(async () => {
  // The last started first: a second harness shares the first one's database, which the first drops.
  for (const harness of harnesses.reverse()) await harness.app.close();
  harnesses = [];
});

async function start(opts: Parameters<typeof createLedgerHarness>[0] = {}) {
  const harness = await createLedgerHarness(opts);
  harnesses.push(harness);
  return harness;
}

/** Another process on the same database: its own clients, store and in-process duplicates. */
const elsewhere = (first: LedgerHarness, settings?: { waitMs: number }) =>
  start({ database: first.app.database, settings });

const entry = (value: number, key = "k") => ({ key, value });

describe("run-once, completion single-transaction", () => {
  it("claims, works and completes in one transaction: no one sees the key before it commits", async () => {
    const owner = await start();
    const other = await elsewhere(owner);
    const held = gate();
    const first = owner.run(entry(1), { held: held.opened });
    await expect.poll(() => owner.works).toBe(1);
    expect(await other.app.db.idempotencyKey.count()).toBe(0);

    held.open();
    await expect(first).resolves.toMatchObject({ decision: "executed", outcome: { ok: true } });
    expect(await other.app.db.idempotencyKey.findFirstOrThrow()).toMatchObject({ state: "COMPLETED" });
    expect(owner.app.calls).toEqual({ claimWithin: 1, transaction: 1, complete: 1 });
  });

  it("runs concurrent duplicates in one process once and gives them all the same answer", async () => {
    const owner = await start();
    const held = gate();
    const calls = Array.from({ length: 10 }, () => owner.run(entry(1), { held: held.opened }));
    await expect.poll(() => owner.works).toBe(1);
    await settle();
    held.open();
    const results = await Promise.all(calls);
    expect(new Set(results.map((result) => JSON.stringify(result.outcome))).size).toBe(1);
    expect(owner.works).toBe(1);
    expect(await owner.ledgerRows()).toHaveLength(1);
  });

  // Another process for real: on SQLite a second client in this process would wait for the lock synchronously.
  it("makes a duplicate in another process wait on the uncommitted claim, then replays its outcome", async () => {
    const survivor = await start();
    const owner = startOwnerProcess(survivor.app.database.url, entry(1), 500);
    await owner.inside;
    const duplicate = await survivor.run(entry(1));
    const first = await owner.result;
    expect(duplicate).toMatchObject({ decision: "replayed", outcome: first.outcome, keyId: first.keyId });
    expect(first.outcome).toEqual({ ok: true, data: "committed by the other process" });
    expect(survivor.works).toBe(0);
    expect(await survivor.ledgerRows()).toEqual(["from the other process"]);
  });

  it("refuses another payload under a held key at once in its process", async () => {
    const owner = await start();
    const held = gate();
    const first = owner.run(entry(1), { held: held.opened });
    await expect.poll(() => owner.works).toBe(1);
    await expect(owner.run(entry(2))).rejects.toMatchObject({ keyState: "in_progress" });
    held.open();
    await first;
    expect(owner.works).toBe(1);
  });

  it("refuses another payload under a key held in another process once its owner commits", async () => {
    const survivor = await start();
    const owner = startOwnerProcess(survivor.app.database.url, entry(1), 500);
    await owner.inside;
    await expect(survivor.run(entry(2))).rejects.toMatchObject({ keyState: "completed" });
    await owner.result;
    expect(survivor.works).toBe(0);
  });

  it("refuses another payload under a completed key", async () => {
    const owner = await start();
    await owner.run(entry(1));
    const other = await elsewhere(owner);
    await expect(other.run(entry(2))).rejects.toBeInstanceOf(KeyReusedError);
    expect(owner.works + other.works).toBe(1);
  });

  it("waits for a key held by an owner in the default mode, then replays it: an operation may switch modes", async () => {
    const owner = await start();
    const held = gate();
    const first = owner.app.runOnce.run(
      { scope: { caller: CALLER, path: "ledger", key: "k" }, fingerprint: ledgerFingerprint(entry(1)) },
      async ({ commit }) => {
        await held.opened;
        return commit(async () => "two commits");
      },
    );
    await expect.poll(() => owner.app.db.idempotencyKey.count()).toBe(1);
    const other = await elsewhere(owner);
    const duplicate = other.run(entry(1));
    await settle(100);
    held.open();
    await expect(duplicate).resolves.toMatchObject({
      decision: "replayed",
      outcome: { ok: true, data: "two commits" },
    });
    await first;
    expect(other.works).toBe(0);
  });

  it("stores a final error with what the work wrote, and replays it", async () => {
    const owner = await start();
    const declined = await owner.run(entry(1), { thenThrow: new Declined("The card was declined.") });
    expect(() => owner.app.runOnce.unwrap(declined)).toThrow(Declined);
    expect(await owner.ledgerRows()).toHaveLength(1);
    const other = await elsewhere(owner);
    const replayed = await other.run(entry(1));
    expect(replayed).toMatchObject({ decision: "replayed", outcome: declined.outcome });
    expect(owner.works + other.works).toBe(1);
  });

  it("rolls back the work and the claim on any other error: the key is absent and the retry runs", async () => {
    const owner = await start();
    await expect(owner.run(entry(1), { thenThrow: new Error("disk hiccup") })).rejects.toThrow("disk hiccup");
    expect(await owner.ledgerRows()).toEqual([]);
    expect(await owner.app.db.idempotencyKey.count()).toBe(0);
    await expect(owner.run(entry(1))).resolves.toMatchObject({ decision: "executed" });
    expect(owner.works).toBe(2);
    expect(await owner.ledgerRows()).toHaveLength(1);
  });

  it("answers an exit before commit() with the key's stored outcome, and leaves an absent key absent", async () => {
    const owner = await start();
    const refuse = async () => {
      throw new Declined("refused before any write");
    };
    await expect(owner.runOperation(entry(1), refuse)).rejects.toThrow("refused before any write");
    expect(await owner.app.db.idempotencyKey.count()).toBe(0);

    const done = await owner.run(entry(1));
    owner.app.runOnce.forget({ caller: CALLER, path: "ledger", key: "k" });
    await expect(owner.runOperation(entry(1), refuse)).resolves.toMatchObject({
      decision: "replayed",
      outcome: done.outcome,
    });
  });

  it("refuses an operation that returns without commit(): CommitMissingError, and no key left behind", async () => {
    const owner = await start();
    await expect(owner.runOperation(entry(1), async () => "no commit")).rejects.toBeInstanceOf(
      CommitMissingError,
    );
    expect(await owner.app.db.idempotencyKey.count()).toBe(0);
  });

  it("lets a retry run at once after its owner is SIGKILLed inside the transaction: nothing of the owner stays", async () => {
    // A lease and a wait far beyond the test's timeout: only the owner's rolled-back transaction can free the key.
    const survivor = await start({ settings: { leaseMs: 120_000, waitMs: 60_000 } });
    const owner = startOwnerProcess(survivor.app.database.url, entry(1));
    await owner.inside;
    await owner.kill();

    await expect(survivor.run(entry(1))).resolves.toMatchObject({ decision: "executed" });
    const rows = await survivor.ledgerRows();
    expect(rows).toHaveLength(1);
    expect(rows).not.toContain("from the other process");
    expect(survivor.works).toBe(1);
  });
});
