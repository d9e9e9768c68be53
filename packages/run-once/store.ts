import type { Claim, ClaimTerms, KeyRecord, KeyScope, StoredOutcome } from "./types";

/** The store contract, the subpath `run-once/store`: what a store of your own implements. */
export type { Claim, ClaimTerms, KeyRecord } from "./types";

/**
 * Persistence of idempotency keys. Every transition is one atomic statement
 * conditioned on what the caller last saw, so concurrent processes cannot both
 * win a claim or a takeover, and a stale owner cannot overwrite a new one.
 * `Tx` is the transaction handle the operation's side effects are written with.
 */
export interface IdempotencyStore<Tx> {
  /**
   * True when the store knows at once whether a key's owner is alive
   * (PostgreSQL: the owner's session lock), so that takeOver() may be tried on
   * any key in progress and succeeds only if its owner is gone. False: only
   * the lease tells, and takeOver() is tried once it ran out.
   */
  readonly detectsDeadOwners: boolean;
  /** Inserts an in-progress key, or returns the key that already holds the scope. */
  claim(scope: KeyScope, terms: ClaimTerms): Promise<{ claimed: Claim } | { existing: KeyRecord }>;
  read(scope: KeyScope): Promise<KeyRecord | null>;
  /**
   * Re-claims a key whose owner is gone (its lease ran out or, where the store
   * detects dead owners, its session ended) or whose retention ran out, if
   * nobody changed it since it was read.
   */
  takeOver(scope: KeyScope, existing: KeyRecord, terms: ClaimTerms): Promise<Claim | null>;
  /** The owner's heartbeat: extends its lease to `lockedUntil`; false if the key is no longer its own. */
  renew(claim: Claim, lockedUntil: Date): Promise<boolean>;
  /** Lets go of what a claim holds besides its row (PostgreSQL: the session lock), once its key is settled. */
  relinquish(claim: Claim): Promise<void>;
  /**
   * Runs `work` in one database transaction, waiting at most `maxWaitMs` for a
   * connection; `timeoutMs`: how long it may stay open (the database client's default without).
   */
  transaction<T>(
    work: (tx: Tx) => Promise<T>,
    options: { maxWaitMs: number; timeoutMs?: number },
  ): Promise<T>;
  /**
   * Marks the key completed with its outcome, inside `tx` (the operation's own
   * transaction). Throws LeaseLostError if the key has a new owner.
   */
  complete(
    claim: Claim,
    outcome: StoredOutcome,
    at: { now: Date; ttlMs: number },
    tx: Tx,
  ): Promise<{ expiresAt: Date }>;
  /** Deletes the key (back to absent) if the claim still owns it. */
  release(claim: Claim): Promise<boolean>;
  /**
   * Deletes completed keys whose retention ended before `expiredBefore`, and
   * claims whose owner never came back, once their lease ended before
   * `abandonedBefore`; returns how many.
   */
  sweep(expiredBefore: Date, abandonedBefore: Date): Promise<number>;
}

/**
 * How a request waiting on a key that another process holds learns that the
 * key may have changed. `wait` resolves after a change or after `maxMs`,
 * whichever comes first; the caller re-reads the key either way.
 */
export interface KeyWatcher {
  wait(record: KeyRecord, attempt: number, maxMs: number): Promise<void>;
  /** Releases what the watcher holds open (a listening connection). */
  close(): Promise<void>;
}
