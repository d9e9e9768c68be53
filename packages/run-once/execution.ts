import { CommitMissingError, LeaseLostError } from "./errors";
import { startHeartbeat } from "./heartbeat";
import type { IdempotencyStore } from "./store";
import type { Decision } from "./outcomes";
import type { Claim, Json, Logger, RunResult, StoredOutcome } from "./types";
import { generationOf } from "./key";

/** What an operation gets while it runs under its claimed key. */
export interface Execution<Tx> {
  /** The key being run. */
  key: string;
  /** The request's fingerprint: what an operation that records how to resume itself runs a recovery under. */
  fingerprint: string;
  /** How this request came to run it: an absent key, an expired one, or one whose owner was gone. */
  decision: Extract<Decision, "executed" | "expired" | "taken_over">;
  /** The key's generation, as logs and pages show it: its owner token's first characters. */
  generation: string;
  /** Runs `work` in the transaction that completes the key, so side effect and outcome commit together or not at all. */
  commit<T>(work: (tx: Tx) => PromiseLike<T>): Promise<T>;
}

export type Operation<Tx, T> = (execution: Execution<Tx>) => Promise<T>;

/** Which errors are answers, and how they are stored and rebuilt: given by the integration. */
export interface FinalErrors {
  /** Whether an error thrown inside commit() is an answer to store and replay, not a failure to roll back. */
  isFinal(error: unknown): boolean;
  encode(error: unknown): Json;
  decode(stored: Json): Error;
}

export interface ExecutionContext<Tx> {
  store: IdempotencyStore<Tx>;
  finalErrors: FinalErrors;
  logger: Pick<Logger, "warn" | "error">;
  /** Where the completion happens and how long to wait for a connection to do it. */
  completedAt: () => { now: Date; ttlMs: number };
  maxWaitMs: number;
  /** The lease the owner's heartbeat keeps renewing while it works. */
  leaseMs: number;
  clock: () => Date;
}

/** Data as it travels: plain JSON, so the first answer and every replay are byte-identical. */
function successOutcome(data: unknown): StoredOutcome {
  return { ok: true, data: data === undefined ? null : (JSON.parse(JSON.stringify(data)) as Json) };
}

/** What commit()'s work stores: its data, or a final error it threw; any other error rolls the transaction back. */
async function outcomeOfWork<T>(
  work: () => PromiseLike<T>,
  finalErrors: FinalErrors,
): Promise<{ data?: T; outcome: StoredOutcome; finalError?: unknown }> {
  try {
    const data = await work();
    return { data, outcome: successOutcome(data) };
  } catch (error) {
    if (!finalErrors.isFinal(error)) throw error;
    return { outcome: { ok: false, error: finalErrors.encode(error) }, finalError: error };
  }
}

/** An operation whose key this request has claimed, and how it came to own it. */
interface ClaimedRun<Tx> {
  claim: Claim;
  request: { key: string; fingerprint: string };
  operation: Operation<Tx, unknown>;
  decision: Execution<Tx>["decision"];
}

/** Runs a claimed operation under its heartbeat, then settles the key: completed by commit(), or released. */
export async function execute<Tx>(context: ExecutionContext<Tx>, run: ClaimedRun<Tx>): Promise<RunResult> {
  const { claim } = run;
  const heartbeat = startHeartbeat(context.store, claim, context, context.logger);
  try {
    return await executeAndSettle(context, run, heartbeat.lost);
  } finally {
    heartbeat.stop();
    // Off the answer's path: the key is settled, and a waiter that finds the lock still held re-reads it.
    void context.store.relinquish(claim).catch((error: unknown) => {
      context.logger.error({ err: error }, "could not let go of a claim's session");
    });
  }
}

async function executeAndSettle<Tx>(
  context: ExecutionContext<Tx>,
  { claim, request, operation, decision }: ClaimedRun<Tx>,
  lost: () => boolean,
): Promise<RunResult> {
  const { store, finalErrors } = context;
  const generation = generationOf(claim.token);
  let committed: { outcome: StoredOutcome; expiresAt: Date } | undefined;
  const execution: Execution<Tx> = {
    ...request,
    decision,
    generation,
    commit: async (work) => {
      if (committed) throw new Error("commit() completes the key, so it runs once per execution");
      // Known to be another's: its work would only be rolled back.
      if (lost()) throw new LeaseLostError();
      let finalError: unknown;
      const done = await store.transaction(
        async (tx) => {
          const worked = await outcomeOfWork(() => work(tx), finalErrors);
          finalError = worked.finalError;
          const { expiresAt } = await store.complete(claim, worked.outcome, context.completedAt(), tx);
          return { data: worked.data, outcome: worked.outcome, expiresAt };
        },
        { maxWaitMs: context.maxWaitMs },
      );
      committed = { outcome: done.outcome, expiresAt: done.expiresAt };
      if (finalError !== undefined) throw finalError;
      return done.data as Awaited<ReturnType<typeof work>>;
    },
  };

  let returned = false;
  let thrown: unknown;
  try {
    await operation(execution);
    returned = true;
  } catch (error) {
    thrown = error;
  }
  // Once committed, the stored outcome is the answer, whatever the operation did afterwards.
  if (committed) return { keyId: claim.id, decision, generation, ...committed };

  // Nothing committed, nothing decided: a refusal and a crash alike free the key for the next request.
  const released = await store.release(claim).catch((error: unknown) => {
    context.logger.error({ err: error }, "could not release a key; it frees when its lease ends");
  });
  // Not the key's owner any more: whatever failed here, the key's answer is another execution's.
  if (released === false) throw new LeaseLostError();
  throw returned ? new CommitMissingError() : thrown;
}
