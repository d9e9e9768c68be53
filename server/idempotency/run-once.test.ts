import { TRPCError } from "@trpc/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DomainError } from "../errors";
import { newSessionId } from "../session";
import { gate } from "../testing/controllable-ledger";
import { FakeClock, SESSION, createProbeApp, settle } from "../testing/probe-app";
import { KeySweeper } from "./sweeper";
import type { ProbeApp } from "../testing/probe-app";

let apps: ProbeApp[] = [];
afterEach(async () => {
  await Promise.all(apps.map((app) => app.close()));
  apps = [];
});

async function start(opts: Parameters<typeof createProbeApp>[0] = {}) {
  const app = await createProbeApp(opts);
  apps.push(app);
  return app;
}

const call = (value: number, idempotencyKey = "key-1") => ({ idempotencyKey, value });

/** Resolves once the app's first execution has claimed its key and runs. */
const executing = (app: ProbeApp) => expect.poll(() => app.executions).toBeGreaterThanOrEqual(1);

/** Makes the probe wait for a gate, so that a key stays in progress. */
function holdExecutions(app: ProbeApp) {
  const held = gate();
  app.behave(async (input) => {
    await held.opened;
    return { value: input.value };
  });
  return held;
}

describe("run-once: the key state grid", () => {
  it("absent key: claims and executes", async () => {
    const app = await start();
    await expect(app.caller().probe(call(1))).resolves.toEqual({ execution: 1, value: 1 });
    expect(app.executions).toBe(1);
    const row = await app.db.idempotencyKey.findFirstOrThrow();
    expect(row).toMatchObject({ state: "COMPLETED", path: "probe", key: "key-1", scope: SESSION });
  });

  it("in progress, same payload: waits for the first attempt and shares its outcome", async () => {
    const app = await start();
    const held = holdExecutions(app);
    const first = app.caller().probe(call(1));
    await executing(app);
    const second = app.caller().probe(call(1));
    await settle();
    held.open();
    expect(await second).toEqual(await first);
    expect(app.executions).toBe(1);
  });

  it("in progress, different payload: rejects with 422 and does not execute", async () => {
    const app = await start();
    const held = holdExecutions(app);
    const first = app.caller().probe(call(1));
    await executing(app);
    await expect(app.caller().probe(call(2))).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      reason: "IDEMPOTENCY_KEY_REUSED",
    });
    held.open();
    await first;
    expect(app.executions).toBe(1);
  });

  it("in progress in another process, different payload: rejects with 422", async () => {
    const app = await start();
    const elsewhere = await start({ database: app.database });
    const held = holdExecutions(app);
    const first = app.caller().probe(call(1));
    await executing(app);
    await expect(elsewhere.caller().probe(call(2))).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    held.open();
    await first;
  });

  it("completed, same payload: returns the stored outcome without executing", async () => {
    const app = await start();
    const first = await app.caller().probe(call(1));
    const again = await app.caller().probe(call(1));
    expect(again).toEqual(first);
    expect(app.executions).toBe(1);
    await app.services.idempotency.flushReplayCounts();
    const row = await app.db.idempotencyKey.findFirstOrThrow();
    expect(row.replayCount).toBe(1);
  });

  it("completed, different payload: rejects with 422", async () => {
    const app = await start();
    await app.caller().probe(call(1));
    await expect(app.caller().probe(call(2))).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    expect(app.executions).toBe(1);
  });

  it.each([
    ["same payload", 1],
    ["different payload", 2],
  ])("expired, %s: treated as absent, so it executes again", async (_, value) => {
    const clock = new FakeClock();
    const app = await start({ clock, settings: { ttlMs: 60_000 } });
    await app.caller().probe(call(1));
    clock.advance(60_001);
    await expect(app.caller().probe(call(value))).resolves.toEqual({ execution: 2, value });
    expect(app.executions).toBe(2);
  });

  it("treats inputs that differ only in key order as the same payload", async () => {
    const app = await start();
    await app.caller().probe({ idempotencyKey: "k", value: 1, nested: { a: 1, b: "x" } });
    const reordered = { nested: { b: "x", a: 1 }, value: 1, idempotencyKey: "k" };
    await expect(app.caller().probe(reordered)).resolves.toEqual({ execution: 1, value: 1 });
    expect(app.executions).toBe(1);
  });
});

describe("run-once: scope", () => {
  it("keeps one key of two callers apart: each executes, neither sees the other's result", async () => {
    const app = await start();
    const mine = await app.caller(newSessionId()).probe(call(1));
    const theirs = await app.caller(newSessionId()).probe(call(1));
    expect(mine.execution).toBe(1);
    expect(theirs.execution).toBe(2);
    expect(await app.db.idempotencyKey.count()).toBe(2);
  });

  it("keeps one key on two procedures apart", async () => {
    const app = await start();
    await app.caller().probe(call(1));
    await expect(app.caller().otherProbe(call(2))).resolves.toEqual({ execution: 2, value: 2 });
  });
});

describe("run-once: concurrent duplicates", () => {
  it("runs 25 concurrent duplicates once, gives all 25 the same result, with bounded store work", async () => {
    const app = await start();
    const held = holdExecutions(app);
    const calls = Array.from({ length: 25 }, () => app.caller().probe(call(7)));
    await executing(app);
    await settle();
    held.open();
    const results = await Promise.all(calls);

    expect(app.executions).toBe(1);
    expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
    // One claim and one completion for the executor; the 24 duplicates share
    // its promise and are counted as replays in one write.
    await app.services.idempotency.flushReplayCounts();
    expect(app.store.calls).toEqual({ claim: 1, complete: 1, countReplays: 1 });
    const row = await app.db.idempotencyKey.findFirstOrThrow();
    expect(row.replayCount).toBe(24);
  });

  it("makes a duplicate in another process wait for the outcome and share it", async () => {
    const app = await start();
    const elsewhere = await start({ database: app.database });
    const held = holdExecutions(app);
    const first = app.caller().probe(call(1));
    await executing(app);
    const second = elsewhere.caller().probe(call(1));
    await settle(100);
    held.open();
    expect(await second).toEqual(await first);
    expect(app.executions + elsewhere.executions).toBe(1);
  });

  it("gives a duplicate in another process 409 with Retry-After past the wait bound, and runs nothing for it", async () => {
    const app = await start();
    const elsewhere = await start({ database: app.database, settings: { waitMs: 200 } });
    const held = holdExecutions(app);
    const first = app.caller().probe(call(1));
    await executing(app);

    const error = await elsewhere
      .caller()
      .probe(call(1))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: "CONFLICT", reason: "IDEMPOTENCY_KEY_IN_PROGRESS" });
    expect((error as DomainError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(elsewhere.executions).toBe(0);

    held.open();
    await first;
  });

  it("gives an in-process duplicate 409 past the wait bound", async () => {
    const app = await start({ settings: { waitMs: 150 } });
    const held = holdExecutions(app);
    const first = app.caller().probe(call(1));
    await executing(app);
    await expect(app.caller().probe(call(1))).rejects.toMatchObject({ code: "CONFLICT" });
    held.open();
    await expect(first).resolves.toMatchObject({ execution: 1 });
  });
});

describe("run-once: callers that go away", () => {
  it("lets a duplicate give up without cancelling the shared execution", async () => {
    const app = await start();
    const held = holdExecutions(app);
    const first = app.caller().probe(call(1));
    await executing(app);
    const controller = new AbortController();
    const duplicate = app.caller(SESSION, { signal: controller.signal }).probe(call(1));
    await settle();
    controller.abort();

    await expect(duplicate).rejects.toMatchObject({ code: "CLIENT_CLOSED_REQUEST" });
    held.open();
    await expect(first).resolves.toEqual({ execution: 1, value: 1 });
    expect(app.executions).toBe(1);
  });

  it("finishes and stores the work when the first caller goes away; the retry replays it", async () => {
    const app = await start();
    const held = holdExecutions(app);
    const controller = new AbortController();
    const first = app.caller(SESSION, { signal: controller.signal }).probe(call(1));
    await executing(app);
    controller.abort();
    await expect(first).rejects.toMatchObject({ code: "CLIENT_CLOSED_REQUEST" });

    held.open();
    await expect.poll(() => app.db.idempotencyKey.findFirst().then((row) => row?.state)).toBe("COMPLETED");
    await expect(app.caller().probe(call(1))).resolves.toEqual({ execution: 1, value: 1 });
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

    const failure = await app
      .caller()
      .probe(call(1))
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "SERVICE_UNAVAILABLE", reason: "TRANSIENT_FAILURE" });
    expect((failure as DomainError).retryAfterSeconds).toBe(1);
    expect(await app.db.idempotencyKey.count()).toBe(0);

    await expect(app.caller().probe(call(1))).resolves.toEqual({ execution: 2, value: 1 });
    await expect(app.caller().probe(call(1))).resolves.toEqual({ execution: 2, value: 1 });
  });

  it("stores a final failure and replays it without executing again", async () => {
    const app = await start();
    app.behave(async () => ({ finalError: new DomainError("CARD_DECLINED", "The card was declined.") }));
    const declined = { code: "PAYMENT_REQUIRED", reason: "CARD_DECLINED", message: "The card was declined." };
    await expect(app.caller().probe(call(1))).rejects.toMatchObject(declined);
    await expect(app.caller().probe(call(1))).rejects.toMatchObject(declined);
    expect(app.executions).toBe(1);
  });

  it("stores nothing for a refusal before commit: the key is released, and the same key runs a corrected request", async () => {
    const app = await start();
    app.behave(async (input) => {
      if (input.value === 1) throw new TRPCError({ code: "BAD_REQUEST", message: "value 1 is refused" });
      return { value: input.value };
    });

    await expect(app.caller().probe(call(1))).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await app.db.idempotencyKey.count()).toBe(0);
    // Not 422: the refused request left nothing under the key to compare with.
    await expect(app.caller().probe(call(2))).resolves.toEqual({ execution: 2, value: 2 });
  });

  it("stores nothing for a 404 before commit", async () => {
    const app = await start();
    app.behave(async () => {
      throw new TRPCError({ code: "NOT_FOUND", message: "no such thing" });
    });
    await expect(app.caller().probe(call(1))).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await app.db.idempotencyKey.count()).toBe(0);
  });
});

describe("run-once: leases and fencing", () => {
  it("takes over a key whose owner went silent past its lease, and fences off the owner's late completion", async () => {
    const app = await start({ settings: { leaseMs: 150 } });
    const elsewhere = await start({ database: app.database, settings: { leaseMs: 150 } });
    const held = holdExecutions(app);
    const stale = app.caller().probe(call(1));
    await executing(app);
    await settle(250);

    // The lease has run out: the other process takes the key over and runs.
    await expect(elsewhere.caller().probe(call(1))).resolves.toEqual({ execution: 1, value: 1 });
    expect(elsewhere.executions).toBe(1);

    // The old owner wakes up; its completion names a token that is no longer the key's.
    held.open();
    await expect(stale).rejects.toMatchObject({ code: "CONFLICT", reason: "IDEMPOTENCY_LEASE_LOST" });
    const row = await app.db.idempotencyKey.findFirstOrThrow();
    expect(JSON.parse(row.outcome ?? "null")).toEqual({ ok: true, data: { execution: 1, value: 1 } });
    await expect(app.caller().probe(call(1))).resolves.toEqual({ execution: 1, value: 1 });
  });

  it("fences off a late release: the old owner's failure does not free the new owner's key", async () => {
    const app = await start({ settings: { leaseMs: 150 } });
    const elsewhere = await start({ database: app.database, settings: { leaseMs: 150 } });
    const held = gate();
    app.behave(async () => {
      await held.opened;
      throw new Error("crashed late");
    });
    const stale = app.caller().probe(call(1));
    await executing(app);
    await settle(250);
    const newOwnerHeld = holdExecutions(elsewhere);
    const newOwner = elsewhere.caller().probe(call(1));
    // The new owner has taken the key over once its handler runs.
    await expect.poll(() => elsewhere.executions).toBe(1);

    held.open();
    await expect(stale).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    const row = await app.db.idempotencyKey.findFirstOrThrow();
    expect(row.state).toBe("IN_PROGRESS");

    newOwnerHeld.open();
    await expect(newOwner).resolves.toEqual({ execution: 1, value: 1 });
  });
});

describe("run-once: retention", () => {
  it("sweeps keys past their retention, and only those", async () => {
    const clock = new FakeClock();
    const app = await start({ clock, settings: { ttlMs: 10_000 } });
    await app.caller().probe(call(1, "old"));
    clock.advance(6_000);
    await app.caller().probe(call(2, "recent"));
    clock.advance(5_000);

    expect(await app.sweeper.sweep()).toBe(1);
    expect((await app.db.idempotencyKey.findMany()).map((row) => row.key)).toEqual(["recent"]);
  });

  it("keeps the store bounded by the TTL under steady load", async () => {
    const clock = new FakeClock();
    const ttlMs = 5_000;
    const perSecond = 10;
    const app = await start({ clock, settings: { ttlMs } });
    let largest = 0;
    for (let second = 0; second < 20; second++) {
      await Promise.all(
        Array.from({ length: perSecond }, (_, i) => app.caller().probe(call(i, `s${second}-${i}`))),
      );
      await app.sweeper.sweep();
      largest = Math.max(largest, await app.db.idempotencyKey.count());
      clock.advance(1_000);
    }
    expect(largest).toBeLessThanOrEqual(2 * perSecond * (ttlMs / 1000));
    expect(largest).toBeGreaterThanOrEqual(perSecond * (ttlMs / 1000));
  });

  it("logs a failed sweep and goes on", async () => {
    const app = await start();
    const log = { info: vi.fn(), error: vi.fn() };
    let fail = true;
    const flaky = new KeySweeper(
      {
        ...app.store,
        sweepExpired: (now: Date) =>
          fail ? Promise.reject(new Error("disk full")) : app.store.sweepExpired(now),
      },
      log,
    );
    await expect(flaky.sweep()).resolves.toBe(0);
    expect(log.error).toHaveBeenCalledOnce();
    fail = false;
    await expect(flaky.sweep()).resolves.toBe(0);
    expect(log.error).toHaveBeenCalledOnce();
  });
});
