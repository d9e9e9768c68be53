import type { RunResult } from "./types";

interface Remembered {
  fingerprint: string;
  result: RunResult;
  until: number;
}

/**
 * Completed outcomes this process stored or read lately, so that duplicates
 * arriving after an execution finished (the tail of a retry storm) are
 * answered from memory instead of the database. A completed outcome never
 * changes before its key expires, and an entry never outlives that expiry;
 * the store stays the source of truth. Bounded in size and in time.
 */
export class RecentOutcomes {
  readonly #entries = new Map<string, Remembered>();

  constructor(
    private readonly windowMs: number,
    private readonly capacity = 10_000,
  ) {}

  get(id: string, now: number): Remembered | undefined {
    const entry = this.#entries.get(id);
    if (!entry || entry.until > now) return entry;
    this.#entries.delete(id);
    return undefined;
  }

  remember(id: string, fingerprint: string, result: RunResult, now: number): void {
    this.#entries.delete(id);
    if (this.windowMs <= 0) return;
    this.#entries.set(id, {
      fingerprint,
      result,
      until: Math.min(result.expiresAt.getTime(), now + this.windowMs),
    });
    // A Map keeps insertion order: the first entries are the oldest.
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.capacity) break;
      this.#entries.delete(oldest);
    }
  }
}
