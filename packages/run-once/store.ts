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
  /** Runs `work` in one database transaction, waiting at most `maxWaitMs` for a connection. */
  transaction<T>(work: (tx: Tx) => Promise<T>, options: { maxWaitMs: number }): Promise<T>;
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
   * Deletes completed keys past their retention, and claims whose owner never
   * came back, once their lease ended before `abandonedBefore`; returns how many.
   */
  sweep(now: Date, abandonedBefore: Date): Promise<number>;
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
