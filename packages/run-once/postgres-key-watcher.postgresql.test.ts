import pg from "pg";
import { expect, it } from "vitest";
import { settle } from "./test-support/harness";
import { ownerHoldingKey } from "./test-support/started";
import { KeyInProgressError } from "./errors";

it("wakes a waiter in another process by NOTIFY when the key settles, without polling", async () => {
  const { other: waiter, held, first } = await ownerHoldingKey("k");
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
  const {
    owner,
    other: waiter,
    held,
    first,
  } = await ownerHoldingKey("k", { other: { settings: { waitMs: 1_000 } } });

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
