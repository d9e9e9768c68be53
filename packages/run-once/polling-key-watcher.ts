import { setTimeout as sleep } from "node:timers/promises";
import type { KeyWatcher } from "./store";
import type { KeyRecord } from "./types";

/** Where nothing pushes (SQLite), a poll backing off to 250 ms sees a quick completion quickly, a slow one cheaply. */
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
