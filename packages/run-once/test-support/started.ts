import { afterEach, expect } from "vitest";
import { gate } from "./gate";
import { createRunOnceHarness } from "./harness";
import type { RunOnceHarness } from "./harness";

type HarnessOptions = Parameters<typeof createRunOnceHarness>[0];

let started: RunOnceHarness[] = [];
afterEach(async () => {
  // Taken first, so that a close that fails never closes them again in the next test.
  const closing = started;
  started = [];
  await Promise.all(closing.map((app) => app.close()));
});

/** A harness closed after the test; with `database`, another process on the same database. */
export async function start(opts: HarnessOptions = {}): Promise<RunOnceHarness> {
  const app = await createRunOnceHarness(opts);
  started.push(app);
  return app;
}

/** Holds every execution of `app` until the returned gate opens. */
export function holdExecutions(app: RunOnceHarness) {
  const held = gate();
  app.behave(async (input) => {
    await held.opened;
    return { value: input.value };
  });
  return held;
}

/** Two processes on one database: the owner suspended inside `key` until `held` opens, and another. */
export async function ownerHoldingKey(
  key: string,
  opts: { owner?: HarnessOptions; other?: HarnessOptions } = {},
) {
  const owner = await start(opts.owner);
  const other = await start({ ...opts.other, database: owner.database });
  const held = holdExecutions(owner);
  const first = owner.probe({ key, value: 1 });
  await expect.poll(() => owner.executions).toBe(1);
  return { owner, other, held, first };
}
