import type { Tx } from "../db/client";
import type { KeyScope } from "./key";
import type { StoredOutcome } from "./outcome";

export type KeyState = "IN_PROGRESS" | "COMPLETED";

/** A key as stored: who owns it (token), until when (lease), and for how long it is kept. */
export interface KeyRecord {
  id: string;
  fingerprint: string;
  state: KeyState;
  token: string;
  lockedUntil: Date;
  expiresAt: Date;
  outcome: StoredOutcome | null;
}

/** Proof of ownership: every later write of the owner names its token. */
export interface Claim {
  id: string;
  token: string;
}

export interface ClaimTerms {
  fingerprint: string;
  now: Date;
  leaseMs: number;
  ttlMs: number;
}

export type ClaimResult = { claimed: Claim } | { existing: KeyRecord };

/**
 * Persistence of idempotency keys. Every transition is one atomic statement
 * conditioned on what the caller last saw, so concurrent processes cannot both
 * win a claim or a takeover, and a stale owner cannot overwrite a new one.
 */
export interface IdempotencyStore {
  /** Inserts an IN_PROGRESS row, or returns the row that already holds the key. */
  claim(scope: KeyScope, terms: ClaimTerms): Promise<ClaimResult>;
  read(scope: KeyScope): Promise<KeyRecord | null>;
  /** Re-claims a row whose lease or retention ran out, if nobody changed it since it was read. */
  takeOver(existing: KeyRecord, terms: ClaimTerms): Promise<Claim | null>;
  /**
   * Marks the key COMPLETED with its outcome, inside the caller's transaction
   * when one is given. Throws a lease-lost error if the key has a new owner.
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
   * Where completions are pushed to waiters (PostgreSQL): records that a
   * process waits on this in-progress key, so its completion will notify.
   * False if the key is no longer the one read (settled or taken over).
   */
  markAwaited?(record: KeyRecord): Promise<boolean>;
  /** Deletes keys past their retention (and abandoned claims past their lease); returns how many. */
  sweepExpired(now: Date): Promise<number>;
}
