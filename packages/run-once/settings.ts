/** The core's timing. */
export interface RunOnceSettings {
  /**
   * How long a claim is presumed alive. A key left in progress past its lease
   * (its owner crashed) can be taken over; keep it well above the slowest
   * execution, since a takeover while the owner still runs fences the owner off.
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
}

export const DEFAULT_RUN_ONCE_SETTINGS: RunOnceSettings = {
  leaseMs: 30_000,
  ttlMs: 24 * 60 * 60 * 1000,
  waitMs: 5_000,
  abandonedGraceMs: 10 * 60 * 1000,
};
