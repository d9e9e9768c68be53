/** The shared vocabulary of the run-once core: leaf types only, so that no module imports another for a type. */

/** Where a key lives: the same key from another caller or operation is another key. */
export interface KeyScope {
  /** Who sent it: a session, an account, an API client. */
  caller: string;
  /** What it runs: an operation's name, stable across releases. */
  path: string;
  /** The client's idempotency key. */
  key: string;
}

export type KeyState = "IN_PROGRESS" | "COMPLETED";

/** Plain JSON: what a stored outcome is made of, so that every replay is byte-identical to the first answer. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A final outcome, stored with a completed key and replayed to every
 * duplicate: the operation's data, or an error it meant as its answer (a
 * decline), encoded by the integration's FinalErrors.
 */
export type StoredOutcome = { ok: true; data: Json } | { ok: false; error: Json };

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

/** What the server decided for one request that got an outcome. */
export type Decision =
  | "executed" // claimed an absent key and ran the operation
  | "replayed" // found the key completed and returned its stored outcome
  | "coalesced" // joined an execution in flight in this process and shared its outcome
  | "taken_over" // found a key in progress whose lease had run out, took it and ran
  | "expired"; // found a completed key past its retention, treated it as absent and ran

export interface RunResult {
  keyId: string;
  outcome: StoredOutcome;
  decision: Decision;
  /** The generation of the key whose outcome this is: a short form of the owner token that executed it. */
  generation: string;
  /** Until when the key is retained and replayed. */
  expiresAt: Date;
}

/** A key as an application shows it: its state, how often it was replayed, and its deadlines. */
export interface KeyView {
  key: string;
  state: "in_progress" | "completed";
  replayCount: number;
  /** Until when an owner in progress is presumed alive. */
  lockedUntil: Date;
  /** Until when the key is retained. */
  expiresAt: Date;
}

/** How a caller's keys stand: executions in progress, completed ones, and the requests answered from them. */
export interface KeyTally {
  inProgress: number;
  completed: number;
  /** Requests answered with a stored or shared outcome instead of executing (replayed or coalesced). */
  replays: number;
}

/** Structured logging, as pino and most loggers take it: details first, then the message. */
export interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
