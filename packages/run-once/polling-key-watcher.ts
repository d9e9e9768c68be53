import { setTimeout as sleep } from "node:timers/promises";
import type { KeyWatcher } from "./store";
import type { KeyRecord } from "./types";

/** Where nothing pushes (SQLite), a poll backing off to 250 ms sees a quick completion quickly, a slow one cheaply. */
const FIRST_INTERVAL_MS = 10;
const MAX_INTERVAL_MS = 250;

export class PollingKeyWatcher implements KeyWatcher {
  async wait(_record: KeyRecord, attempt: number, maxMs: number): Promise<void> {
    const interval = Math.min(FIRST_INTERVAL_MS * 2 ** attempt, MAX_INTERVAL_MS);
    await sleep(Math.max(0, Math.min(interval, maxMs)));
  }

  async close(): Promise<void> {}
}
