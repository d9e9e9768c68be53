import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { gate } from "./test-support/gate";
import { fastCheckSettings } from "./test-support/fast-check-settings";
import { Declined, FakeClock, createRunOnceHarness } from "./test-support/harness";
import type { ProbeBehaviour, RunOnceHarness } from "./test-support/harness";
import { KeyInProgressError, KeyReusedError } from "./errors";

/**
 * A model-based test of the key state machine: random sequences of requests
 * (several callers, keys and payloads), transient and final failures, crashes
 * (a process that claims a key and dies) and clock jumps past the lease or
 * the TTL, run against the real middleware and a real database, and checked
 * after every step against a small model of what each key should be.
 */
// Long enough never to run out by themselves during a run: only jumps cross them.
const LEASE_MS = 30_000;
const TTL_MS = 600_000;
const WAIT_MS = 100;

type Behaviour = "success" | "final" | "refused" | "transient";
type Outcome = { ok: true; data: { execution: number; value: number } } | { ok: false; reason: string };

type KeyModel =
  | { state: "completed"; value: number; outcome: Outcome; expiresAt: number }
  | { state: "abandoned"; value: number; lockedUntil: number };

interface Model {
  keys: Map<string, KeyModel>;
  /** How many processes have died holding each key: each crash needs a process of its own. */
  crashes: Map<string, number>;
}

interface Real {
  app: RunOnceHarness;
  /** Other processes on the same database, whose claims never finish: crashes. */
  doomed: RunOnceHarness[];
  sessions: string[];
  clock: FakeClock;
  dying: Array<Promise<unknown>>;
  releaseDoomed: () => void;
}

const clock = new FakeClock();
let app: RunOnceHarness;
let doomed: RunOnceHarness[];

beforeAll(async () => {
  const settings = { leaseMs: LEASE_MS, ttlMs: TTL_MS, waitMs: WAIT_MS };
  app = await createRunOnceHarness({ clock, settings });
  doomed = await Promise.all(
    [1, 2].map(() => createRunOnceHarness({ clock, settings, database: app.database })),
  );
});
afterAll(async () => {
  await Promise.all(doomed.map((process) => process.close()));
  await app.close();
});

/** PostgreSQL knows at once that an owner's session died; SQLite knows only that its lease ran out. */
const detectsDeadOwners = () => app.runOnceStore.detectsDeadOwners;

const id = (caller: number, key: number) => `${caller}/${key}`;
const keyName = (key: number) => `key-${key}`;

/** What the model says a key is now: expired retention and run-out leases read as absent. */
function live(model: Model, caller: number, key: number): KeyModel | undefined {
  const entry = model.keys.get(id(caller, key));
  if (entry?.state === "completed" && clock.now().getTime() >= entry.expiresAt) return undefined;
  return entry;
}

class Refused extends Error {}

function behaviourOf(kind: Behaviour): ProbeBehaviour {
  return async (input) => {
    if (kind === "final") return { declined: "The card was declined." };
    if (kind === "refused") throw new Refused("The amount is not the order's total.");
    if (kind === "transient") throw new Error("connection reset");
    return { value: input.value };
  };
}

async function callOnce(real: Real, caller: number, key: number, value: number): Promise<Outcome | string> {
  try {
    const data = await real.app.probe({ key: keyName(key), value }, { caller: real.sessions[caller] });
    return { ok: true, data };
  } catch (error) {
    if (error instanceof Declined) return { ok: false, reason: "DECLINED" };
    if (error instanceof KeyReusedError) return "REUSED";
    if (error instanceof KeyInProgressError) return "IN_PROGRESS";
    if (error instanceof Refused) return "REFUSED";
    return error instanceof Error ? error.message : "unknown error";
  }
}

class Call implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly caller: number,
    readonly key: number,
    readonly value: number,
    readonly behaviour: Behaviour,
    readonly duplicates: number,
  ) {}

  check = () => true;

  async run(model: Model, real: Real) {
    real.app.behave(behaviourOf(this.behaviour));
    const entry = live(model, this.caller, this.key);
    const before = real.app.executions;
    const answers = await Promise.all(
      Array.from({ length: this.duplicates }, () => callOnce(real, this.caller, this.key, this.value)),
    );
    const ran = real.app.executions - before;
    const now = clock.now().getTime();

    if (entry && entry.value !== this.value) {
      // A live key with another payload: 422, nothing runs.
      expect(answers).toEqual(answers.map(() => "REUSED"));
      expect(ran).toBe(0);
      return;
    }
    if (entry?.state === "completed") {
      // Every replay is the first outcome, and nothing runs again.
      expect(answers).toEqual(answers.map(() => entry.outcome));
      expect(ran).toBe(0);
      return;
    }
    /** The answers of one execution: duplicates share it, or get 409 if it outlasts the wait bound. */
    const shared = (expected: Outcome | string) => {
      expect(answers).toContainEqual(expected);
      for (const answer of answers) expect([expected, "IN_PROGRESS"]).toContainEqual(answer);
    };
    if (entry?.state === "abandoned" && !detectsDeadOwners() && now < entry.lockedUntil) {
      // A dead owner's lease still runs, and the lease is all the store knows: duplicates wait, then get 409.
      expect(answers).toEqual(answers.map(() => "IN_PROGRESS"));
      expect(ran).toBe(0);
      return;
    }
    // Absent, expired, or abandoned (past its lease, or at once where the store sees dead owners): one execution.
    expect(ran).toBe(1);
    const execution = real.app.executions;
    if (this.behaviour === "transient" || this.behaviour === "refused") {
      // Never stored: nothing was committed, the key is released, and the next call runs again.
      shared(this.behaviour === "transient" ? "connection reset" : "REFUSED");
      model.keys.delete(id(this.caller, this.key));
      return;
    }
    const outcome: Outcome =
      this.behaviour === "success"
        ? { ok: true, data: { execution, value: this.value } }
        : { ok: false, reason: "DECLINED" };
    shared(outcome);
    model.keys.set(id(this.caller, this.key), {
      state: "completed",
      value: this.value,
      outcome,
      expiresAt: clock.now().getTime() + TTL_MS,
    });
  }

  toString = () =>
    `call(caller ${this.caller}, key ${this.key}, value ${this.value}, ${this.behaviour}, x${this.duplicates})`;
}

class Crash implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly caller: number,
    readonly key: number,
    readonly value: number,
  ) {}

  /** A process can only claim a key that is free to claim, and a dead process claims nothing more. */
  check(model: Readonly<Model>) {
    if ((model.crashes.get(id(this.caller, this.key)) ?? 0) >= doomed.length) return false;
    const entry = live(model as Model, this.caller, this.key);
    // An abandoned key is taken over past its lease, with its own payload (another one gets 422).
    return (
      entry === undefined ||
      (entry.state === "abandoned" &&
        (detectsDeadOwners() || clock.now().getTime() >= entry.lockedUntil) &&
        entry.value === this.value)
    );
  }

  async run(model: Model, real: Real) {
    const crashes = model.crashes.get(id(this.caller, this.key)) ?? 0;
    model.crashes.set(id(this.caller, this.key), crashes + 1);
    const process = real.doomed[crashes]!;
    const before = process.executions;
    real.dying.push(
      process
        .probe({ key: keyName(this.key), value: this.value }, { caller: real.sessions[this.caller] })
        .catch(() => undefined),
    );
    await expect.poll(() => process.executions).toBe(before + 1);
    await process.die();
    model.keys.set(id(this.caller, this.key), {
      state: "abandoned",
      value: this.value,
      lockedUntil: clock.now().getTime() + LEASE_MS,
    });
  }

  toString = () => `crash(caller ${this.caller}, key ${this.key}, value ${this.value})`;
}

class Jump implements fc.AsyncCommand<Model, Real> {
  constructor(readonly past: "lease" | "ttl") {}
  check = () => true;

  async run() {
    clock.advance(this.past === "lease" ? LEASE_MS + 1 : TTL_MS + 1);
  }

  toString = () => `jump past the ${this.past}`;
}

const caller = fc.integer({ min: 0, max: 2 });
const key = fc.integer({ min: 0, max: 1 });
const value = fc.integer({ min: 1, max: 2 });
const commands = fc.commands(
  [
    fc
      .tuple(
        caller,
        key,
        value,
        fc.constantFrom<Behaviour>("success", "success", "final", "refused", "transient"),
        fc.integer({ min: 1, max: 3 }),
      )
      .map(([c, k, v, b, n]) => new Call(c, k, v, b, n)),
    fc.tuple(caller, key, value).map(([c, k, v]) => new Crash(c, k, v)),
    fc.constantFrom<"lease" | "ttl">("lease", "ttl").map((past) => new Jump(past)),
  ],
  { maxCommands: 14 },
);

it("keeps every key's promises under random requests, failures, crashes and clock jumps", async () => {
  await fc.assert(
    fc.asyncProperty(commands, async (sequence) => {
      const held = gate();
      for (const process of doomed) {
        process.behave(async (input) => {
          await held.opened;
          return { value: input.value };
        });
      }
      // Fresh callers for every run: runs share the database, never a key.
      const real: Real = {
        app,
        doomed,
        sessions: [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()],
        clock,
        dying: [],
        releaseDoomed: held.open,
      };
      try {
        await fc.asyncModelRun(() => ({ model: { keys: new Map(), crashes: new Map() }, real }), sequence);
      } finally {
        real.releaseDoomed();
        await Promise.all(real.dying);
      }
    }),
    fastCheckSettings(40),
  );
}, 300_000);
