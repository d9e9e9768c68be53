import { afterEach, expect, it } from "vitest";
import { gate } from "~/testing/gate";
import { createLedgerHarness } from "~/testing/single-transaction-ledger";
import type { LedgerHarness } from "~/testing/single-transaction-ledger";
import { KeyInProgressError } from "./errors";

let harnesses: LedgerHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.reverse()) await harness.app.close();
  harnesses = [];
});

async function start(opts: Parameters<typeof createLedgerHarness>[0] = {}) {
  const harness = await createLedgerHarness(opts);
  harnesses.push(harness);
  return harness;
}

it("gives a duplicate in another process 409 once its wait on the uncommitted claim passes the bound", async () => {
  const owner = await start();
  const other = await start({ database: owner.app.database, settings: { waitMs: 300 } });
  const held = gate();
  const first = owner.run({ key: "k", value: 1 }, { held: held.opened });
  await expect.poll(() => owner.works).toBe(1);

  const error = await other.run({ key: "k", value: 1 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(KeyInProgressError);
  expect((error as KeyInProgressError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(other.works).toBe(0);

  held.open();
  await first;
  await expect(other.run({ key: "k", value: 1 })).resolves.toMatchObject({ decision: "replayed" });
});

it("bounds only the claim's wait: the work's statements keep the session's lock_timeout", async () => {
  const owner = await start({ settings: { waitMs: 300 } });
  const result = await owner.runOperation({ key: "k", value: 1 }, ({ commit }) =>
    commit(async (tx) => {
      const [row] = await tx.$queryRaw<Array<{ lockTimeout: string }>>`
        SELECT current_setting('lock_timeout') AS "lockTimeout"`;
      return row!.lockTimeout;
    }),
  );
  expect(result.outcome).toEqual({ ok: true, data: "0" });
});
