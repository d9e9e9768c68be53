import type { Claim, ClaimTerms, KeyRecord, KeyScope, StoredOutcome } from "./types";

/** The store contract, the subpath `run-once/store`: what a store of your own implements. */
export type { Claim, ClaimTerms, KeyRecord } from "./types";

/** Keys' persistence: each transition is one statement conditioned on what was last seen, so only one wins. */
export interface IdempotencyStore<Tx> {
  /** True: takeOver() may be tried on any key in progress and wins only if its owner is gone; false: the lease tells. */
  readonly detectsDeadOwners: boolean;
  /** Inserts an in-progress key, or returns the key that already holds the scope. */
  claim(scope: KeyScope, terms: ClaimTerms): Promise<{ claimed: Claim } | { existing: KeyRecord }>;
  read(scope: KeyScope): Promise<KeyRecord | null>;
  /** Re-claims a key whose owner is gone or whose retention ran out, if nobody changed it since it was read. */
  takeOver(scope: KeyScope, existing: KeyRecord, terms: ClaimTerms): Promise<Claim | null>;
  /** The owner's heartbeat: extends its lease to `lockedUntil`; false if the key is no longer its own. */
  renew(claim: Claim, lockedUntil: Date): Promise<boolean>;
  /** Lets go of what a claim holds besides its row (PostgreSQL: the session lock), once its key is settled. */
  relinquish(claim: Claim): Promise<void>;
  /** Runs `work` in one transaction, waiting at most `maxWaitMs` for a connection and open at most `timeoutMs`. */
  transaction<T>(
    work: (tx: Tx) => Promise<T>,
    options: { maxWaitMs: number; timeoutMs?: number },
  ): Promise<T>;
  /** Completes the key with its outcome inside the operation's `tx`; LeaseLostError if the key has a new owner. */
  complete(
    claim: Claim,
    outcome: StoredOutcome,
    at: { now: Date; ttlMs: number },
    tx: Tx,
  ): Promise<{ expiresAt: Date }>;
  /** Deletes the key (back to absent) if the claim still owns it. */
  release(claim: Claim): Promise<boolean>;
  /** Deletes keys expired before `expiredBefore` and claims abandoned before `abandonedBefore`; returns how many. */
  sweep(expiredBefore: Date, abandonedBefore: Date): Promise<number>;
}

/** How a waiter on a key held elsewhere learns it may have changed: `wait` resolves on a change or after `maxMs`. */
export interface KeyWatcher {
  wait(record: KeyRecord, attempt: number, maxMs: number): Promise<void>;
  /** Releases what the watcher holds open (a listening connection). */
  close(): Promise<void>;
}
