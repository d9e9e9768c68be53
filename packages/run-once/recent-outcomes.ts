import type { RunResult } from "./types";

interface Remembered {
  fingerprint: string;
  result: RunResult;
  until: number;
}

/** Recent completed outcomes, bounded, answering a retry storm's tail from memory: none outlives its key's expiry. */
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
