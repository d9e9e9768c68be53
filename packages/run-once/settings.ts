/** The core's timing. */
export interface RunOnceSettings {
  /**
   * How long a claim is presumed alive without a word from its owner. A live
   * owner renews it every third of it (its heartbeat), so a slow execution
   * keeps its key; a key whose owner stopped renewing (it crashed) can be
   * taken over once it runs out. On PostgreSQL a dead owner is known at once
   * (its session lock), so the lease is only the fallback; on SQLite it is
   * how long a crashed owner's key waits, so it is kept short.
   */
  leaseMs: number;
  /**
   * How long a completed key is kept and replayed. Derive it from your longest
   * retry or redelivery window: a retry arriving after it executes again.
   */
  ttlMs: number;
  /**
   * How long a duplicate waits for an in-progress key's outcome before it gets
   * KeyInProgressError (409 with Retry-After); nothing executes for it.
   */
  waitMs: number;
  /**
   * How long past its lease a claim whose owner never came back is kept before
   * the sweeper deletes it: long enough for a late retry to take it over.
   */
  abandonedGraceMs: number;
  /**
   * How long this process answers a completed key's duplicates from memory,
   * within its retention (the tail of a retry storm costs no query); 0: every
   * duplicate reads the store, for keys changed outside the core.
   */
  recentOutcomesMs: number;
}

export const DEFAULT_RUN_ONCE_SETTINGS: RunOnceSettings = {
  leaseMs: 10_000,
  ttlMs: 24 * 60 * 60 * 1000,
  waitMs: 5_000,
  abandonedGraceMs: 10 * 60 * 1000,
  recentOutcomesMs: 60_000,
};
