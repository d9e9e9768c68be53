import { expect, it } from "vitest";
import { FakeClock, settle } from "./test-support/harness";
import type { RunOnceHarness } from "./test-support/harness";
import { ownerHoldingKey, start } from "./test-support/started";
import { POSTGRES } from "./test-support/test-database";

it("keeps a slow owner's key for as long as it works, past many leases: one execution, no lease lost", async () => {
  // A lease that survives a loaded machine's stalls (two beats missed in a row), and three of them pass.
  // The wait bound is far above it: this test is about the lease, not the bound.
  const settings = { leaseMs: 1_000, waitMs: 30_000 };
  const {
    owner,
    other: waiter,
    held,
    first,
  } = await ownerHoldingKey("slow", {
    owner: { settings },
    other: { settings },
  });

  // A duplicate elsewhere waits through three leases of a live owner without taking the key.
  const second = waiter.probe({ key: "slow", value: 1 });
  await settle(3_000);
  expect(waiter.executions).toBe(0);
  held.open();

  const [a, b] = await Promise.all([first, second]);
  expect(b).toEqual(a);
  expect(owner.executions + waiter.executions).toBe(1);
  expect((await owner.keys())[0]?.state).toBe("COMPLETED");
});

it("stops renewing once the owner dies, so its lease runs out and a retry takes the key over", async () => {
  const settings = { leaseMs: 300, waitMs: 4_000 };
  const owner = await start({ settings });
  const retrier = await start({ settings, database: owner.database });
  owner.behave(() => new Promise(() => undefined));
  void owner.probe({ key: "dead", value: 1 }).catch(() => undefined);
  await expect.poll(() => owner.executions).toBe(1);
  await owner.die();

  const result = await retrier.run({ key: "dead", value: 1 });
  expect(result.decision).toBe("taken_over");
  expect(retrier.executions).toBe(1);
});

/** A live owner loses its key: on PostgreSQL the server closes its sessions; on SQLite another's clock runs past its lease. */
async function loseKey(owner: RunOnceHarness, otherClock: FakeClock) {
  if (!POSTGRES) return otherClock.advance(1_000);
  await owner.db.$executeRaw`
    SELECT pg_terminate_backend("pid") FROM pg_stat_activity
    WHERE "datname" = current_database() AND "application_name" LIKE 'run-once owner %'`;
}

it("stops a live owner whose key was taken over before its commit, once a beat finds the key another's", async () => {
  const settings = { leaseMs: 300, waitMs: 4_000 };
  const clock = new FakeClock();
  const { owner, other, held, first } = await ownerHoldingKey("lost", {
    owner: { settings },
    other: { settings, clock },
  });
  await loseKey(owner, clock);
  await expect(other.run({ key: "lost", value: 1 })).resolves.toMatchObject({ decision: "taken_over" });
  // The owner's next beats find the key another's.
  await settle(300);

  held.open();
  await expect(first).resolves.toEqual({ execution: 1, value: 1 });
  // Its commit never opened a transaction: nothing of it was written, not even to be rolled back.
  expect(owner.calls.transaction).toBeUndefined();
  expect(await owner.ledger()).toHaveLength(1);
});
