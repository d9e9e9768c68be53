import { describe, expect, it, vi } from "vitest";
import { gate } from "./test-support/gate";
import { holdExecutions, start } from "./test-support/started";
import { CALLER, Declined, FakeClock, settle } from "./test-support/harness";
import type { RunOnceHarness } from "./test-support/harness";
import { CallerGoneError, CommitMissingError, KeyInProgressError, KeyReusedError } from "./errors";
import { KeySweeper } from "./sweeper";

const call = (value: number, key = "key-1") => ({ key, value });

/** Resolves once the app's first execution has claimed its key and runs. */
const executing = (app: RunOnceHarness) => expect.poll(() => app.executions).toBeGreaterThanOrEqual(1);

/** Makes the probe wait for a gate, so that a key stays in progress. */

describe("run-once: the key state grid", () => {
  it("absent key: claims and executes", async () => {
    const app = await start();
    await expect(app.probe(call(1))).resolves.toEqual({ execution: 1, value: 1 });
    expect(app.executions).toBe(1);
    expect(await app.keys()).toMatchObject([
      { state: "COMPLETED", path: "probe", key: "key-1", scope: CALLER },
    ]);
  });

  it("in progress, same payload: waits for the first attempt and shares its outcome", async () => {
    const app = await start();
    const held = holdExecutions(app);
    const first = app.probe(call(1));
    await executing(app);
    const second = app.probe(call(1));
    await settle();
    held.open();
    expect(await second).toEqual(await first);
    expect(app.executions).toBe(1);
  });

  it("in progress, different payload: rejects with 422 and does not execute", async () => {
    const app = await start();
    const held = holdExecutions(app);
    const first = app.probe(call(1));
    await executing(app);
    await expect(app.probe(call(2))).rejects.toBeInstanceOf(KeyReusedError);
    held.open();
    await first;
    expect(app.executions).toBe(1);
  });

  it("in progress in another process, different payload: rejects with 422", async () => {
    const app = await start();
    const elsewhere = await start({ database: app.database });
    const held = holdExecutions(app);
    const first = app.probe(call(1));
    await executing(app);
    await expect(elsewhere.probe(call(2))).rejects.toBeInstanceOf(KeyReusedError);
    held.open();
    await first;
  });

  it("completed, same payload: returns the stored outcome without executing", async () => {
    const app = await start();
    const first = await app.probe(call(1));
    const again = await app.run(call(1));
    expect(app.runOnce.unwrap(again)).toEqual(first);
    expect(again.decision).toBe("replayed");
    expect(app.executions).toBe(1);
  });

  it("completed, different payload: rejects with 422", async () => {
    const app = await start();
    await app.probe(call(1));
    await expect(app.probe(call(2))).rejects.toBeInstanceOf(KeyReusedError);
    expect(app.executions).toBe(1);
  });

  it.each([
    ["same payload", 1],
    ["different payload", 2],
  ])("expired, %s: treated as absent, so it executes again", async (_, value) => {
    const clock = new FakeClock();
    const app = await start({ clock, settings: { ttlMs: 60_000 } });
    await app.probe(call(1));
    clock.advance(60_001);
    await expect(app.probe(call(value))).resolves.toEqual({ execution: 2, value });
    expect(app.executions).toBe(2);
  });

  it("treats inputs that differ only in key order as the same payload", async () => {
    const app = await start();
    await app.probe({ key: "k", value: 1, nested: { a: 1, b: "x" } });
    const reordered = { nested: { b: "x", a: 1 }, value: 1, key: "k" };
    await expect(app.probe(reordered)).resolves.toEqual({ execution: 1, value: 1 });
    expect(app.executions).toBe(1);
  });
});

describe("run-once: scope", () => {
  it("keeps one key of two callers apart: each executes, neither sees the other's result", async () => {
    const app = await start();
    const mine = await app.probe(call(1), { caller: crypto.randomUUID() });
    const theirs = await app.probe(call(1), { caller: crypto.randomUUID() });
    expect(mine.execution).toBe(1);
    expect(theirs.execution).toBe(2);
    expect(await app.keys()).toHaveLength(2);
  });

  it("keeps one key on two procedures apart", async () => {
    const app = await start();
    await app.probe(call(1));
    await expect(app.probe(call(2), { path: "other" })).resolves.toEqual({ execution: 2, value: 2 });
  });
});

describe("run-once: concurrent duplicates", () => {
  it("runs 25 concurrent duplicates once, gives all 25 the same result, with bounded store work", async () => {
    const app = await start();
    const held = holdExecutions(app);
    const calls = Array.from({ length: 25 }, () => app.probe(call(7)));
    await executing(app);
    await settle();
    held.open();
    const results = await Promise.all(calls);

    expect(app.executions).toBe(1);
    expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
    // One claim and one completion for the executor; the 24 duplicates share its promise and touch no store.
    expect(app.calls).toEqual({ claim: 1, transaction: 1, complete: 1, relinquish: 1 });
  });

  it("makes a duplicate in another process wait for the outcome and share it", async () => {
    const app = await start();
    const elsewhere = await start({ database: app.database });
    const held = holdExecutions(app);
    const first = app.probe(call(1));
    await executing(app);
    const second = elsewhere.probe(call(1));
    await settle(100);
    held.open();
    expect(await second).toEqual(await first);
    expect(app.executions + elsewhere.executions).toBe(1);
  });

  it("gives a duplicate in another process 409 with Retry-After past the wait bound, and runs nothing for it", async () => {
    const app = await start();
    const elsewhere = await start({ database: app.database, settings: { waitMs: 200 } });
    const held = holdExecutions(app);
    const first = app.probe(call(1));
    await executing(app);

    const error = await elsewhere.probe(call(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyInProgressError);
    expect((error as KeyInProgressError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(elsewhere.executions).toBe(0);

    held.open();
    await first;
  });

  it("gives an in-process duplicate 409 past the wait bound", async () => {
    const app = await start({ settings: { waitMs: 150 } });
    const held = holdExecutions(app);
    const first = app.probe(call(1));
    await executing(app);
    await expect(app.probe(call(1))).rejects.toBeInstanceOf(KeyInProgressError);
    held.open();
    await expect(first).resolves.toMatchObject({ execution: 1 });
  });
});

describe("run-once: callers that go away", () => {
  it("lets a duplicate give up without cancelling the shared execution", async () => {
    const app = await start();
    const held = holdExecutions(app);
    const first = app.probe(call(1));
    await executing(app);
    const controller = new AbortController();
    const duplicate = app.probe(call(1), { signal: controller.signal });
    await settle();
    controller.abort();

    await expect(duplicate).rejects.toBeInstanceOf(CallerGoneError);
    held.open();
    await expect(first).resolves.toEqual({ execution: 1, value: 1 });
    expect(app.executions).toBe(1);
  });

  it("finishes and stores the work when the first caller goes away; the retry replays it", async () => {
    const app = await start();
    const held = holdExecutions(app);
    const controller = new AbortController();
    const first = app.probe(call(1), { signal: controller.signal });
    await executing(app);
    controller.abort();
    await expect(first).rejects.toBeInstanceOf(CallerGoneError);

    held.open();
    await expect.poll(() => app.keys().then((rows) => rows[0]?.state)).toBe("COMPLETED");
    await expect(app.probe(call(1))).resolves.toEqual({ execution: 1, value: 1 });
    expect(app.executions).toBe(1);
  });
});

describe("run-once: outcomes", () => {
  it("releases the key after a failure before commit, so the retry runs normally", async () => {
    const app = await start();
    app.behave(async (input, execution) => {
      if (execution === 1) throw new Error("database hiccup");
      return { value: input.value };
    });

    const failure = await app.probe(call(1)).catch((e: unknown) => e);
    // Rethrown as it was: the integration decides how to say it (the tRPC adapter: 503, Retry-After: 1).
    expect(failure).toMatchObject({ message: "database hiccup" });
    expect(await app.keys()).toHaveLength(0);

    await expect(app.probe(call(1))).resolves.toEqual({ execution: 2, value: 1 });
    await expect(app.probe(call(1))).resolves.toEqual({ execution: 2, value: 1 });
  });

  it("stores a final failure and replays it without executing again", async () => {
    const app = await start();
    app.behave(async () => ({ declined: "The card was declined." }));
    const declined = { reason: "DECLINED", message: "The card was declined." };
    await expect(app.probe(call(1))).rejects.toMatchObject(declined);
    await expect(app.probe(call(1))).rejects.toMatchObject(declined);
    expect(app.executions).toBe(1);
  });

  it("stores nothing for a refusal before commit: the key is released, and the same key runs a corrected request", async () => {
    const app = await start();
    app.behave(async (input) => {
      if (input.value === 1) throw new Declined("value 1 is refused");
      return { value: input.value };
    });

    await expect(app.probe(call(1))).rejects.toThrow("value 1 is refused");
    expect(await app.keys()).toHaveLength(0);
    // Not 422: the refused request left nothing under the key to compare with.
    await expect(app.probe(call(2))).resolves.toEqual({ execution: 2, value: 2 });
  });
});

describe("run-once: completion", () => {
  const scope = { caller: "caller-1", path: "no-commit", key: "k" };

  it("refuses an operation that returns without commit(): CommitMissingError, and no key left behind", async () => {
    const app = await start();
    await expect(
      app.runOnce.run({ scope, fingerprint: "fp" }, async () => ({ wrote: "outside" })),
    ).rejects.toBeInstanceOf(CommitMissingError);
    expect(await app.keys()).toHaveLength(0);
  });
});

describe("run-once: leases and fencing", () => {
  it("takes over a key whose owner went silent past its lease, fences off the owner's late completion, and answers its caller with the key's outcome", async () => {
    const app = await start({ settings: { leaseMs: 150 } });
    const elsewhere = await start({ database: app.database, settings: { leaseMs: 150 } });
    const held = holdExecutions(app);
    const stale = app.probe(call(1));
    await executing(app);
    await app.die();
    await settle(250);

    // The lease has run out: the other process takes the key over and runs.
    await expect(elsewhere.probe(call(1))).resolves.toEqual({ execution: 1, value: 1 });
    expect(elsewhere.executions).toBe(1);

    // The old owner wakes up; its completion names a token that is no longer the key's, so its caller gets the key's answer.
    held.open();
    await expect(stale).resolves.toEqual({ execution: 1, value: 1 });
    const [row] = await app.keys();
    expect(JSON.parse(row?.outcome ?? "null")).toEqual({ ok: true, data: { execution: 1, value: 1 } });
    // Its side effect rolled back with its refused completion: one committed execution, the new owner's.
    expect(await app.ledger()).toHaveLength(1);
    await expect(app.probe(call(1))).resolves.toEqual({ execution: 1, value: 1 });
  });

  it("fences off a late release: the old owner's failure does not free the new owner's key, and its caller gets the key's answer", async () => {
    const app = await start({ settings: { leaseMs: 150 } });
    const elsewhere = await start({ database: app.database, settings: { leaseMs: 150 } });
    const held = gate();
    app.behave(async () => {
      await held.opened;
      throw new Error("crashed late");
    });
    const stale = app.probe(call(1));
    await executing(app);
    await app.die();
    await settle(250);
    const newOwnerHeld = holdExecutions(elsewhere);
    const newOwner = elsewhere.probe(call(1));
    // The new owner has taken the key over once its handler runs.
    await expect.poll(() => elsewhere.executions).toBe(1);

    held.open();
    await expect.poll(() => app.calls.release).toBe(1);
    const [row] = await app.keys();
    expect(row?.state).toBe("IN_PROGRESS");

    newOwnerHeld.open();
    await expect(newOwner).resolves.toEqual({ execution: 1, value: 1 });
    // Not "crashed late": the key's answer, as a duplicate waiting on it gets.
    await expect(stale).resolves.toEqual({ execution: 1, value: 1 });
  });
});

describe("run-once: retention", () => {
  it("sweeps keys past their retention, and only those", async () => {
    const clock = new FakeClock();
    const app = await start({ clock, settings: { ttlMs: 10_000 } });
    await app.probe(call(1, "old"));
    clock.advance(6_000);
    await app.probe(call(2, "recent"));
    clock.advance(5_000);

    expect(await app.sweeper.sweep()).toBe(1);
    expect((await app.keys()).map((row) => row.key)).toEqual(["recent"]);
  });

  it("once started, keeps a key just past its retention for one interval, so that it is seen as expired first", async () => {
    const clock = new FakeClock();
    const app = await start({ clock, settings: { ttlMs: 10_000 } });
    await app.probe(call(1, "aged"));
    app.sweeper.start(60_000);
    try {
      clock.advance(10_000 + 1_000);
      expect(await app.sweeper.sweep()).toBe(0);
      await expect(app.run(call(1, "aged"))).resolves.toMatchObject({ decision: "expired" });
      clock.advance(10_000 + 61_000);
      expect(await app.sweeper.sweep()).toBe(1);
    } finally {
      app.sweeper.stop();
    }
  });

  it("sweeps a claim whose owner never came back once its lease is long over, and not before", async () => {
    const clock = new FakeClock();
    const settings = { leaseMs: 10_000, abandonedGraceMs: 60_000 };
    const app = await start({ clock, settings });
    const dead = await start({ clock, settings, database: app.database });
    holdExecutions(dead); // its execution never ends: a crashed owner
    void dead.probe(call(1, "abandoned")).catch(() => undefined);
    await executing(dead);

    clock.advance(10_000 + 59_000);
    expect(await app.sweeper.sweep()).toBe(0);
    clock.advance(2_000);
    expect(await app.sweeper.sweep()).toBe(1);
    expect(await app.keys()).toHaveLength(0);
  });

  it("keeps the store bounded by the TTL under steady load", async () => {
    const clock = new FakeClock();
    const ttlMs = 5_000;
    const perSecond = 10;
    const app = await start({ clock, settings: { ttlMs } });
    let largest = 0;
    for (let second = 0; second < 20; second++) {
      await Promise.all(Array.from({ length: perSecond }, (_, i) => app.probe(call(i, `s${second}-${i}`))));
      await app.sweeper.sweep();
      largest = Math.max(largest, (await app.keys()).length);
      clock.advance(1_000);
    }
    expect(largest).toBeLessThanOrEqual(2 * perSecond * (ttlMs / 1000));
    expect(largest).toBeGreaterThanOrEqual(perSecond * (ttlMs / 1000));
  });

  it("logs a failed sweep and goes on", async () => {
    const app = await start();
    const log = { info: vi.fn(), error: vi.fn() };
    let fail = true;
    const store = {
      sweep: (expiredBefore: Date, abandonedBefore: Date) =>
        fail
          ? Promise.reject(new Error("disk full"))
          : app.runOnceStore.sweep(expiredBefore, abandonedBefore),
    };
    const flaky = new KeySweeper(store, { abandonedGraceMs: 60_000, logger: log });
    await expect(flaky.sweep()).resolves.toBe(0);
    expect(log.error).toHaveBeenCalledOnce();
    fail = false;
    await expect(flaky.sweep()).resolves.toBe(0);
    expect(log.error).toHaveBeenCalledOnce();
  });
});
