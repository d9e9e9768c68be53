/** The core's timing. */
export interface RunOnceSettings {
  /** How long a silent owner is presumed alive (renewed every third of it); on SQLite a crashed owner's key waits it out. */
  leaseMs: number;
  /** How long a completed key is replayed: your longest retry window, as a retry after it executes again. */
  ttlMs: number;
  /** How long a duplicate waits for an in-progress key's outcome before KeyInProgressError. */
  waitMs: number;
  /** How long past its lease an abandoned claim is kept, so a late retry can still take it over. */
  abandonedGraceMs: number;
  /** How long this process answers a completed key's duplicates from memory; 0 for keys changed outside the core. */
  recentOutcomesMs: number;
}

export const DEFAULT_RUN_ONCE_SETTINGS: RunOnceSettings = {
  leaseMs: 10_000,
  ttlMs: 24 * 60 * 60 * 1000,
  waitMs: 5_000,
  abandonedGraceMs: 10 * 60 * 1000,
  recentOutcomesMs: 60_000,
};
