/** Batches writes until quiet, or at once when `maxGroups` keys or `maxItems` items wait: never by the clock, so a slow storm costs what a fast one does. */
export class WriteBehind<T> {
  #pending = new Map<string, T>();
  #groups = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly groupOf: (item: T) => string,
    private readonly quietMs = 200,
    private readonly maxGroups = 100,
    private readonly maxItems = 2_000,
  ) {}

  /** The item pending under `id`, to change in place before it is written. */
  pending(id: string): T | undefined {
    return this.#pending.get(id);
  }

  /** Forgets the item pending under `id`: it was written another way. */
  drop(id: string): void {
    this.#pending.delete(id);
  }

  put(id: string, item: T): void {
    this.#pending.set(id, item);
    this.#groups.add(this.groupOf(item));
    clearTimeout(this.#timer);
    // A full batch goes on the next turn, so that a request's arrival and its ending in one turn share a row.
    const full = this.#groups.size >= this.maxGroups || this.#pending.size >= this.maxItems;
    this.#timer = setTimeout(() => void this.flush(), full ? 0 : this.quietMs);
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
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    this.#groups = new Set();
    if (batch.length > 0) this.then(() => this.write(batch));
    return this.#writing;
  }
}
