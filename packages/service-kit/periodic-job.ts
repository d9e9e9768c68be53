/** A background job's unref'd timer; overlapping ticks share the pass in progress. */
export class PeriodicJob<T> {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<T> | undefined;

  constructor(
    private readonly pass: () => Promise<T>,
    protected readonly onError: (error: unknown) => void,
  ) {}

  start(intervalMs: number): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.tick().catch(this.onError), intervalMs);
    this.#timer.unref();
  }

  /** Stops the timer; resolves once a pass in progress has ended, so that what it uses can be closed. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  tick(): Promise<T> {
    this.#running ??= this.pass().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }
}
