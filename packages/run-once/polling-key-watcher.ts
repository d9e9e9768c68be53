import { setTimeout as sleep } from "node:timers/promises";
import type { KeyWatcher } from "./store";
import type { KeyRecord } from "./types";

/**
 * Where nothing pushes (SQLite), waiting is a poll that backs off (10 ms,
 * 20 ms, ... up to 250 ms): a quick completion is seen quickly, and a slow one
 * costs at most a few reads a second. In-process duplicates share one waiter,
 * so this is one poll per process and key, not one per request.
 */
export class PollingKeyWatcher implements KeyWatcher {
  constructor(
    private readonly firstIntervalMs = 10,
    private readonly maxIntervalMs = 250,
  ) {}

  async wait(_record: KeyRecord, attempt: number, maxMs: number): Promise<void> {
    const interval = Math.min(this.firstIntervalMs * 2 ** attempt, this.maxIntervalMs);
    await sleep(Math.max(0, Math.min(interval, maxMs)));
  }

  async close(): Promise<void> {}
}
