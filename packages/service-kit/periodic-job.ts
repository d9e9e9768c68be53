/**
 * A background job's timer: a pass every interval (unref'd, so it never keeps
 * a process alive), and `tick()` for a pass now; overlapping ticks share the
 * pass in progress, so one job never runs two passes at once.
 */
export class PeriodicJob<T> {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<T> | undefined;

  constructor(private readonly pass: () => Promise<T>) {}

  start(intervalMs: number): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.tick(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  tick(): Promise<T> {
    this.#running ??= this.pass().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }
}
