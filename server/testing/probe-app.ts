import { setTimeout as sleep } from "node:timers/promises";
import type { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createDb } from "../db/client";
import type { Db } from "../db/client";
import { RunOnceCoordinator } from "../idempotency/coordinator";
import type { KeyTransaction } from "../idempotency/coordinator";
import { idempotencyKeySchema } from "../idempotency/key";
import { idempotencyBackend } from "../idempotency/backend";
import { DEFAULT_RUN_ONCE_SETTINGS } from "../idempotency/settings";
import type { RunOnceSettings } from "../idempotency/settings";
import type { IdempotencyStore } from "../idempotency/store";
import { KeySweeper } from "../idempotency/sweeper";
import { MockLedger } from "../ledger/mock-ledger";
import { logger } from "../logger";
import { AppMetrics } from "../observability/app-metrics";
import { newSessionId } from "../session";
import { createContextInner } from "../trpc/context";
import { createCallerFactory, router } from "../trpc/init";
import { runOnceProcedure } from "../trpc/procedures";
import { createTestDatabase } from "./test-database";
import type { TestDatabase } from "./test-database";

/**
 * A probe for the run-once middleware alone: two run-once mutations whose
 * handler is whatever the test says it is, counted. Not the checkout: any
 * mutation can opt in, and this is one that does.
 */
export interface ProbeInput {
  value: number;
  nested?: { a?: number; b?: string } | undefined;
}

/**
 * What the probe does once it runs, before its transaction (the slow, outside
 * part, like a card authorization). An error thrown here is a refusal or a
 * crash, decided before any write; the answer is committed: a value, or a
 * final error such as a decline, stored like a success.
 */
export type ProbeBehaviour = (input: ProbeInput, execution: number) => Promise<ProbeAnswer>;
export type ProbeAnswer = { value: number } | { finalError: TRPCError };

const probeInput = z.strictObject({
  idempotencyKey: idempotencyKeySchema.optional(),
  value: z.number(),
  nested: z.object({ a: z.number().optional(), b: z.string().optional() }).optional(),
});
const probeOutput = z.object({ execution: z.number(), value: z.number() });

/** Counts every call of every store method. */
export function countingStore(store: IdempotencyStore): IdempotencyStore & { calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  return new Proxy(store as IdempotencyStore & { calls: Record<string, number> }, {
    get(target, property, receiver) {
      if (property === "calls") return calls;
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls[String(property)] = (calls[String(property)] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * Real time plus jumps: time flows (waits and timeouts still end), and a test
 * can leap past a lease or a retention period at once.
 */
export class FakeClock {
  #offsetMs = 0;
  now = () => new Date(Date.now() + this.#offsetMs);
  advance(ms: number) {
    this.#offsetMs += ms;
  }
}

export async function createProbeApp(
  opts: { settings?: Partial<RunOnceSettings>; database?: TestDatabase; clock?: FakeClock } = {},
) {
  const database = opts.database ?? (await createTestDatabase());
  const db: Db = createDb(database.url);
  const backend = idempotencyBackend(database.url, db, logger);
  const store = countingStore(backend.store);
  const clock = opts.clock?.now;
  const idempotency = new RunOnceCoordinator(
    { db, store, watcher: backend.watcher, logger, clock },
    { ...DEFAULT_RUN_ONCE_SETTINGS, ...opts.settings },
  );
  const services = {
    db,
    ledger: new MockLedger(),
    idempotency,
    labEnabled: false,
    benchBaseline: false,
    metrics: new AppMetrics(),
    throttle: null,
  };

  let executions = 0;
  let behaviour: ProbeBehaviour = async (input) => ({ value: input.value });
  const handle = async (input: ProbeInput, runOnce: KeyTransaction) => {
    const execution = ++executions;
    const answer = await behaviour(input, execution);
    return runOnce.commit(async () => {
      if ("finalError" in answer) throw answer.finalError;
      return { execution, value: answer.value };
    });
  };
  const probeRouter = router({
    probe: runOnceProcedure(probeInput, probeOutput).mutation(({ ctx, input }) => handle(input, ctx.runOnce)),
    otherProbe: runOnceProcedure(probeInput, probeOutput).mutation(({ ctx, input }) =>
      handle(input, ctx.runOnce),
    ),
  });
  const createCaller = createCallerFactory(probeRouter);

  return {
    database,
    db,
    store,
    services,
    sweeper: new KeySweeper(store, logger, clock),
    get executions() {
      return executions;
    },
    behave(next: ProbeBehaviour) {
      behaviour = next;
    },
    caller(sessionId: string = SESSION, callerOpts?: { signal?: AbortSignal }) {
      return createCaller(createContextInner({ services, sessionId }), callerOpts);
    },
    async close() {
      await idempotency.flushReplayCounts();
      await Promise.all([backend.watcher.close(), db.$disconnect()]);
      if (!opts.database) await database.drop();
    },
  };
}

export type ProbeApp = Awaited<ReturnType<typeof createProbeApp>>;

/** The session most probe calls use. */
export const SESSION = newSessionId();

/** Lets pending promises and timers run, so that concurrent calls are really in flight. */
export const settle = (ms = 30) => sleep(ms);
