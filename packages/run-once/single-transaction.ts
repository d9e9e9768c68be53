import { CommitMissingError } from "./errors";
import { outcomeOfWork } from "./execution";
import type { Execution, ExecutionContext, Operation } from "./execution";
import { generationOf } from "./key";
import type { ClaimTerms, Decision, KeyRecord, KeyScope, RunResult } from "./types";

/** The work's own time in the transaction, past the claim's wait: what an interactive transaction gets by default. */
const WORK_TIMEOUT_MS = 5_000;

/** What an attempt in one transaction came to: the operation's result, or the committed key it found instead. */
export type SingleTransactionAttempt = { result: RunResult } | { existing: KeyRecord };

export interface SingleTransactionRequest {
  scope: KeyScope;
  fingerprint: string;
  terms: () => ClaimTerms;
  /** When a duplicate stops waiting for another transaction's claim of the key (epoch ms). */
  deadline: number;
  onClaimed?: (claim: { decision: Decision; generation: string }) => void;
}

/** Rolls the transaction back when its claim finds a committed key: the attempt stops, and the grid takes over. */
class KeyFoundError extends Error {
  constructor(readonly record: KeyRecord) {
    super("The key is held by a committed claim: this attempt stops, and its outcome or state answers.");
    this.name = "KeyFoundError";
  }
}

/**
 * Completion "single-transaction": the operation runs, and its commit() opens
 * one transaction that claims the key, runs the work and completes the key,
 * so a call costs one commit. Nobody sees the claim before that commit: a
 * duplicate's claim waits on it in the database (bounded by the deadline),
 * a rollback or a crash leaves the key absent, and no heartbeat or lease is
 * needed while it is held. What the operation does before commit() runs
 * before the claim, so it must only read: it runs again for a duplicate or a
 * retry whose claim then finds the key.
 */
export async function executeInOneTransaction<Tx>(
  context: ExecutionContext<Tx>,
  request: SingleTransactionRequest,
  operation: Operation<Tx, unknown>,
): Promise<SingleTransactionAttempt> {
  const { store, finalErrors } = context;
  let committed: RunResult | undefined;
  let found: KeyRecord | undefined;
  let failedCommit: { failure: unknown; claimed: boolean } | undefined;
  const execution: Execution<Tx> = {
    key: request.scope.key,
    fingerprint: request.fingerprint,
    commit: async (work) => {
      if (committed || found || failedCommit)
        throw new Error("commit() completes the key, so it runs once per execution");
      let finalError: unknown;
      let claimed = false;
      try {
        const waitMs = Math.max(0, request.deadline - context.clock().getTime());
        const done = await store.transaction(
          async (tx) => {
            const terms = request.terms();
            if (!store.claimWithin)
              throw new Error(
                'completion "single-transaction" needs a store in the work\'s database (claimWithin)',
              );
            const claim = await store.claimWithin(tx, request.scope, terms, waitMs);
            if ("existing" in claim) throw new KeyFoundError(claim.existing);
            claimed = true;
            const generation = generationOf(claim.claimed.token);
            request.onClaimed?.({ decision: "executed", generation });
            const { data, outcome, finalError: thrown } = await outcomeOfWork(() => work(tx), finalErrors);
            finalError = thrown;
            // Completed as of the claim, in the same transaction: the retention the claim wrote stays as it
            // is, so the update changes no indexed column and PostgreSQL can make it a HOT update.
            const { expiresAt } = await store.complete(
              claim.claimed,
              outcome,
              { now: terms.now, ttlMs: terms.ttlMs },
              tx,
            );
            const result: RunResult = {
              keyId: claim.claimed.id,
              outcome,
              decision: "executed",
              generation,
              expiresAt,
            };
            return { data, result };
          },
          // Open long enough for the claim to wait its whole bound and the work to run after it.
          { maxWaitMs: context.maxWaitMs, timeoutMs: waitMs + WORK_TIMEOUT_MS },
        );
        committed = done.result;
        if (finalError !== undefined) throw finalError;
        return done.data as Awaited<ReturnType<typeof work>>;
      } catch (error) {
        if (committed) throw error;
        if (error instanceof KeyFoundError) found = error.record;
        else failedCommit = { failure: error, claimed };
        throw error;
      }
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
  // Whatever the operation did after commit(), what the transaction decided is the answer.
  if (committed) return { result: committed };
  if (found) return { existing: found };
  // Rolled back, claim and all: the key is as it was. A claim's own failure (a wait past its bound)
  // is the answer however the operation passed it on; a failed work is what the operation made of it.
  if (failedCommit) throw !failedCommit.claimed || returned ? failedCommit.failure : thrown;
  // commit() never ran, so nothing was claimed: a stored outcome must not be hidden by this early exit.
  const existing = await store.read(request.scope);
  if (existing) return { existing };
  throw returned ? new CommitMissingError() : thrown;
}
