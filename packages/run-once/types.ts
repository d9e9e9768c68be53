import type { Decision } from "./outcomes";

/** Where a key lives: the same key from another caller or operation is another key. */
export interface KeyScope {
  /** Who sent it: a session, an account, an API client. */
  caller: string;
  /** What it runs: an operation's name, stable across releases. */
  path: string;
  /** The client's idempotency key. */
  key: string;
}

/** A stored key's state, the grid's middle rows; a key not stored (or past its retention) is absent. */
export type KeyState = "in_progress" | "completed";

/** Plain JSON: what a stored outcome is made of, so that every replay is byte-identical to the first answer. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A completed key's outcome, replayed to every duplicate: the data, or a final error as FinalErrors encoded it. */
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

export interface RunResult {
  keyId: string;
  outcome: StoredOutcome;
  decision: Decision;
  /** The generation of the key whose outcome this is: a short form of the owner token that executed it. */
  generation: string;
  /** Until when the key is retained and replayed. */
  expiresAt: Date;
}

/** Structured logging, as pino and most loggers take it: details first, then the message. */
export interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
