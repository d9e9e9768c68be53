import { setTimeout as sleep } from "node:timers/promises";

/**
 * How a request waiting on a key that another process holds learns that the
 * key may have changed. `wait` resolves after a change or after `maxMs`,
 * whichever comes first; the caller re-reads the key either way.
 */
export interface KeyWatcher {
  wait(keyId: string, attempt: number, maxMs: number): Promise<void>;
  /** Where changes are pushed: starts listening, so that none made after this resolves is missed. */
  listen?(): Promise<void>;
  /** Releases what the watcher holds open (a listening connection). */
  close(): Promise<void>;
}

/**
 * SQLite has no push notifications, so waiting is a poll that backs off
 * (10 ms, 20 ms, ... up to 250 ms): a quick completion is seen quickly, and a
 * slow one costs at most a few reads a second. In-process duplicates share one
 * waiter, so this is one poll per process and key, not one per request.
 */
export class PollingKeyWatcher implements KeyWatcher {
  constructor(
    private readonly firstIntervalMs = 10,
    private readonly maxIntervalMs = 250,
  ) {}

  async wait(_keyId: string, attempt: number, maxMs: number): Promise<void> {
    const interval = Math.min(this.firstIntervalMs * 2 ** attempt, this.maxIntervalMs);
    await sleep(Math.max(0, Math.min(interval, maxMs)));
  }

  async close(): Promise<void> {}
}
