import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { gate } from "./test-support/gate";
import { createRunOnceHarness, settle } from "./test-support/harness";
import type { RunOnceHarness } from "./test-support/harness";
import { KeyInProgressError } from "./errors";

let apps: RunOnceHarness[] = [];
afterEach(async () => {
  await Promise.all(apps.map((app) => app.close()));
  apps = [];
});

/** Two processes on one database: the owner executing key "k" until `held` opens, and a waiter. */
async function ownerHoldingKey(waiterSettings: Parameters<typeof createRunOnceHarness>[0] = {}) {
  const owner = await createRunOnceHarness();
  const waiter = await createRunOnceHarness({ ...waiterSettings, database: owner.database });
  apps.push(waiter, owner);
  const held = gate();
  owner.behave(async (input) => {
    await held.opened;
    return { value: input.value };
  });
  const first = owner.probe({ key: "k", value: 1 });
  await expect.poll(() => owner.executions).toBe(1);
  return { owner, waiter, held, first };
}

it("wakes a waiter in another process by NOTIFY when the key settles, without polling", async () => {
  const { waiter, held, first } = await ownerHoldingKey();
  const second = waiter.probe({ key: "k", value: 1 });
  await settle(1_500);
  const readsWhileHeld = waiter.calls.read ?? 0;

  const openedAt = Date.now();
  held.open();
  const [a, b] = await Promise.all([first, second]);
  const wokeAfterMs = Date.now() - openedAt;

  expect(b).toEqual(a);
  // A poll backing off to 250 ms would have read the key 8 times or more in 1.5 s;
  // the waiter re-reads only when a wait of at most 1 s runs out.
  expect(readsWhileHeld).toBeLessThanOrEqual(2);
  expect(wokeAfterMs).toBeLessThan(500);
});

it("keeps a waiter's bound while the owner's completing transaction holds the key's row", async () => {
  const { owner, waiter, held, first } = await ownerHoldingKey({ settings: { waitMs: 1_000 } });

  // An owner stalled between its completion's UPDATE and its COMMIT holds the row lock.
  const stalled = new pg.Client({ connectionString: owner.database.url });
  await stalled.connect();
  try {
    await stalled.query("BEGIN");
    await stalled.query(`SELECT 1 FROM "IdempotencyKey" WHERE "key" = 'k' FOR UPDATE`);
    const startedAt = Date.now();
    await expect(waiter.probe({ key: "k", value: 1 })).rejects.toBeInstanceOf(KeyInProgressError);
    expect(Date.now() - startedAt).toBeLessThan(2_500);
  } finally {
    await stalled.query("ROLLBACK");
    await stalled.end();
  }
  held.open();
  await first;
});
