/** Batches writes once quiet for `quietMs` or every `maxDelayMs`, in order; a crash loses the unwritten. */
export class WriteBehind<T> {
  #pending = new Map<string, T>();
  #timer: NodeJS.Timeout | undefined;
  #oldestPendingAt: number | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly quietMs = 200,
    private readonly maxDelayMs = 5_000,
  ) {}

  /** The item pending under `id`, to change in place before it is written. */
  pending(id: string): T | undefined {
    return this.#pending.get(id);
  }

  put(id: string, item: T): void {
    this.#pending.set(id, item);
    const now = Date.now();
    this.#oldestPendingAt ??= now;
    clearTimeout(this.#timer);
    const wait = Math.max(0, Math.min(this.quietMs, this.#oldestPendingAt + this.maxDelayMs - now));
    this.#timer = setTimeout(() => void this.flush(), wait);
    this.#timer.unref();
  }

  /** Runs `work` once the writes queued before it are done. */
  then(work: () => Promise<void>): void {
    this.#writing = this.#writing.then(work);
  }

  /** Writes what is pending now; resolves when it (and any earlier write) is written. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#oldestPendingAt = undefined;
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    if (batch.length > 0) this.then(() => this.write(batch));
    return this.#writing;
  }
}
