import { expect, it } from "vitest";
import { settle } from "./test-support/harness";
import { ownerHoldingKey } from "./test-support/started";
import { KeyInProgressError } from "./errors";

const ownerInside = (settings: { leaseMs: number; waitMs: number }) =>
  ownerHoldingKey("k", { owner: { settings }, other: { settings } });

it("takes over at once, long before the lease ends, a key whose owner's session died", async () => {
  const { owner, other, held, first } = await ownerInside({ leaseMs: 30_000, waitMs: 5_000 });
  // A duplicate waits on the live owner...
  const waiting = other.run({ key: "k", value: 1 });
  await settle(300);
  expect(other.executions).toBe(0);

  // ...whose session the server closes, as it does when a process dies.
  const diedAt = Date.now();
  await owner.die();
  const result = await waiting;
  expect(result.decision).toBe("taken_over");
  expect(Date.now() - diedAt).toBeLessThan(2_000);
  expect(other.executions).toBe(1);

  // The old owner's late completion is fenced off, and its caller gets the key's answer.
  held.open();
  await expect(first).resolves.toEqual({ execution: 1, value: 1 });
  expect(await owner.ledger()).toHaveLength(1);
});

it("leaves a live owner its key even past its lease: the session lock, not the clock, says it lives", async () => {
  const { owner, other, held, first } = await ownerInside({ leaseMs: 200, waitMs: 1_000 });
  // Its heartbeats stop but its session stays: the lease runs out, the lock holds.
  owner.runOnceStore.renew = () => Promise.resolve(true);
  await settle(400);
  await expect(other.probe({ key: "k", value: 1 })).rejects.toBeInstanceOf(KeyInProgressError);
  expect(other.executions).toBe(0);
  held.open();
  await expect(first).resolves.toEqual({ execution: 1, value: 1 });
});

it("lets an owner whose session dropped, and whose key nobody took, commit: its lock is gone, its claim is not", async () => {
  const { owner, held, first } = await ownerInside({ leaseMs: 300, waitMs: 1_000 });
  await owner.db.$executeRaw`
    SELECT pg_terminate_backend("pid") FROM pg_stat_activity
    WHERE "datname" = current_database() AND "application_name" LIKE 'run-once owner %'`;
  // Its beats go on, on the row, which is still its own.
  await settle(300);
  held.open();
  await expect(first).resolves.toEqual({ execution: 1, value: 1 });
  expect(owner.executions).toBe(1);
  expect(await owner.ledger()).toHaveLength(1);
});
