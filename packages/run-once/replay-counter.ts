import type { Logger } from "./types";
import type { IdempotencyStore } from "./store";

/**
 * Counts replays per key in memory and writes them in batches: once replays
 * have been quiet for `quietMs`, and at least every `maxDelayMs` while they
 * keep coming. A storm of duplicates costs the database a few writes, however
 * long it lasts, not one per request. The count is a statistic, so a reply
 * does not wait for it; a crash loses at most the unwritten batch.
 */
export class ReplayCounter {
  #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #oldestPendingAt: number | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<IdempotencyStore<unknown>, "countReplays">,
    private readonly logger: Pick<Logger, "warn">,
    private readonly quietMs = 200,
    private readonly maxDelayMs = 5_000,
  ) {}

  add(keyId: string, count = 1): void {
    this.#pending.set(keyId, (this.#pending.get(keyId) ?? 0) + count);
    const now = Date.now();
    this.#oldestPendingAt ??= now;
    clearTimeout(this.#timer);
    const wait = Math.max(0, Math.min(this.quietMs, this.#oldestPendingAt + this.maxDelayMs - now));
    this.#timer = setTimeout(() => void this.flush(), wait);
    this.#timer.unref();
  }

  /** Writes what is pending now; resolves when it (and any earlier flush) is written. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#oldestPendingAt = undefined;
    const batch = [...this.#pending];
    this.#pending = new Map();
    this.#flushing = this.#flushing.then(() =>
      Promise.all(
        batch.map(([keyId, count]) =>
          this.store.countReplays(keyId, count).catch((error: unknown) => {
            this.logger.warn({ err: error, count }, "could not record replays");
          }),
        ),
      ).then(() => undefined),
    );
    return this.#flushing;
  }
}
