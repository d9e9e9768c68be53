import { CommitMissingError, LeaseLostError } from "./errors";
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

/** Rolls the transaction back when its claim finds a committed key: the attempt stops, and the key is read. */
class KeyFoundError extends Error {
  constructor() {
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
 *
 * On a pipelined store the work starts before the claim's answer, its
 * statements queued behind the claim's, and the completion goes with the
 * COMMIT. The store's claim and completion fail the transaction when they find
 * no row, so a lost claim has every statement the work sent refused, and a
 * completion cannot miss its key. The work's code still runs for a lost claim
 * (the refusals are its statements' answers), and again in a later attempt
 * if the key it lost to is gone by the time it is read. The connection
 * answers the claim before the work's statements, but the work's code may
 * resume before onClaimed is called.
 */
export async function executeInOneTransaction<Tx>(
  context: ExecutionContext<Tx>,
  request: SingleTransactionRequest,
  operation: Operation<Tx, unknown>,
): Promise<SingleTransactionAttempt> {
  const { store, finalErrors } = context;
  const claimWithin = store.claimWithin?.bind(store);
  if (!claimWithin)
    throw new Error('completion "single-transaction" needs a store in the work\'s database (claimWithin)');
  let committed: RunResult | undefined;
  let found: KeyRecord | undefined;
  let failedCommit: { failure: unknown; claimed: boolean } | undefined;
  let claimed = false;
  /** The completion once sent: pipelined, its failure is known only after the COMMIT's. */
  let completion: Promise<unknown> | undefined;

  /** One transaction: the claim, the work and the completion; KeyFoundError if the claim finds a key. */
  const attempt = <T>(work: (tx: Tx) => PromiseLike<T>) => {
    const waitMs = Math.max(0, request.deadline - context.clock().getTime());
    return store.transaction(
      async (tx) => {
        const terms = request.terms();
        const claiming = claimWithin(tx, request.scope, terms, waitMs).then((claim) => {
          if (!claim) return null;
          claimed = true;
          request.onClaimed?.({ decision: "executed", generation: generationOf(claim.token) });
          return claim;
        });
        let working: ReturnType<typeof outcomeOfWork<T>> | undefined;
        if (store.pipelined) {
          // Its statements queue behind the claim's; wait for both, so it has ended before the rollback.
          working = outcomeOfWork(() => work(tx), finalErrors);
          await Promise.allSettled([claiming, working]);
        }
        const claim = await claiming;
        if (!claim) throw new KeyFoundError();
        const worked = await (working ?? outcomeOfWork(() => work(tx), finalErrors));
        // Completed as of the claim, in the same transaction: the retention the claim wrote stays as it
        // is, so the update changes no indexed column and PostgreSQL can make it a HOT update.
        const completing = store.complete(claim, worked.outcome, { now: terms.now, ttlMs: terms.ttlMs }, tx);
        completion = completing;
        // Pipelined, the COMMIT goes out behind the completion, and the transaction rejects if it failed.
        if (store.pipelined) void completing.catch(() => undefined);
        else await completing;
        return { worked, claim, completing };
      },
      // Open long enough for the claim to wait its whole bound and the work to run after it.
      { maxWaitMs: context.maxWaitMs, timeoutMs: waitMs + WORK_TIMEOUT_MS },
    );
  };

  const execution: Execution<Tx> = {
    key: request.scope.key,
    fingerprint: request.fingerprint,
    commit: async (work) => {
      if (committed || found || failedCommit)
        throw new Error("commit() completes the key, so it runs once per execution");
      try {
        for (;;) {
          try {
            const { worked, claim, completing } = await attempt(work);
            const { expiresAt } = await completing;
            committed = {
              keyId: claim.id,
              outcome: worked.outcome,
              decision: "executed",
              generation: generationOf(claim.token),
              expiresAt,
            };
            if (worked.finalError !== undefined) throw worked.finalError;
            return worked.data as Awaited<ReturnType<typeof work>>;
          } catch (error) {
            if (!(error instanceof KeyFoundError)) throw error;
            found = (await store.read(request.scope)) ?? undefined;
            if (found) throw error;
            // The key that stopped the claim is gone already (released, or swept): claim it afresh.
          }
        }
      } catch (error) {
        // A completion that lost its key says more than the rolled-back COMMIT that followed it.
        const lost = await completion?.then(
          () => undefined,
          (completionError: unknown) =>
            completionError instanceof LeaseLostError ? completionError : undefined,
        );
        const failure = committed ? error : (lost ?? error);
        if (!committed && !found) failedCommit = { failure, claimed };
        throw failure;
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
