import type {
  Claim,
  ClaimResult,
  ClaimTerms,
  KeyRecord,
  KeyScope,
  KeyTally,
  KeyView,
  StoredOutcome,
} from "./types";

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
  /** Inserts an IN_PROGRESS key, or returns the key that already holds the scope. */
  claim(scope: KeyScope, terms: ClaimTerms): Promise<ClaimResult>;
  /**
   * The claim of completion "single-transaction": inserts an IN_PROGRESS key
   * inside `tx`, the transaction the operation's work and completion then run
   * in, so that no other process sees the claim before it commits, and a
   * crash rolls it back with the work. Waits at most `maxWaitMs` for another
   * transaction's uncommitted claim of the same key to end, then throws
   * KeyInProgressError. Null: a committed key holds the scope; the caller
   * rolls `tx` back and reads the key outside it (on a pipelined store the
   * claim has also failed `tx`, so the statements queued behind it fail too).
   * Sends its one statement before it returns. Only a store in the work's own
   * database can: one without it (a store in memory or in another database)
   * serves the other completions.
   */
  claimWithin?(tx: Tx, scope: KeyScope, terms: ClaimTerms, maxWaitMs: number): Promise<Claim | null>;
  /**
   * True when `tx`'s statements are pipelined (PgDatabase): each is sent
   * without waiting for the answers before it, they are answered in order, and
   * the transaction rejects rather than commits if one of them failed; the
   * claim within it and the completion in it then fail `tx` themselves when
   * they find no row. The
   * single-transaction completion then sends the claim, the work's statements
   * and the completion with the COMMIT without waiting on each: a call costs
   * the round trips of the same transaction without run-once.
   */
  readonly pipelined?: boolean;
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
   * Marks the key COMPLETED with its outcome, inside `tx` when given (the
   * operation's own transaction). Throws LeaseLostError if the key has a new owner.
   */
  complete(
    claim: Claim,
    outcome: StoredOutcome,
    at: { now: Date; ttlMs: number },
    tx?: Tx,
  ): Promise<{ expiresAt: Date }>;
  /** Deletes the key (back to absent) if the claim still owns it. */
  release(claim: Claim): Promise<boolean>;
  countReplays(id: string, count: number): Promise<void>;
  /**
   * Deletes completed keys whose retention ended before `expiredBefore`, and
   * claims whose owner never came back, once their lease ended before
   * `abandonedBefore`; returns how many.
   */
  sweep(expiredBefore: Date, abandonedBefore: Date): Promise<number>;
  /** The given keys of one caller and operation, as an application shows them; absent keys are left out. */
  view(caller: string, path: string, keys: string[]): Promise<KeyView[]>;
  /** How all of a caller's keys stand, on every operation. */
  tally(caller: string): Promise<KeyTally>;
  /** Closes the connections the store holds of its own. */
  close(): Promise<void>;
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
