import type { IdempotencyStore } from "./store";
import type { Logger } from "./types";

/** Deletes expired keys and abandoned claims on a timer, so the table is bounded by real use. */
export class KeySweeper {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  /** One interval while started, so a key just expired is seen expired (the grid's last row), not gone. */
  #expiredGraceMs = 0;

  constructor(
    private readonly store: Pick<IdempotencyStore<unknown>, "sweep">,
    private readonly options: {
      /** How long past its lease an abandoned claim is kept (RunOnceSettings.abandonedGraceMs). */
      abandonedGraceMs: number;
      logger: Pick<Logger, "info" | "error">;
      clock?: () => Date;
    },
  ) {}

  start(intervalMs: number): void {
    if (this.#timer) return;
    this.#expiredGraceMs = intervalMs;
    this.#timer = setInterval(() => void this.sweep(), intervalMs);
    // The server's own handles keep the process alive; this timer should not.
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#expiredGraceMs = 0;
  }

  /** One sweep; overlapping ticks share the sweep in progress. */
  sweep(): Promise<number> {
    const now = (this.options.clock ?? (() => new Date()))();
    const expiredBefore = new Date(now.getTime() - this.#expiredGraceMs);
    const graceStart = new Date(now.getTime() - this.options.abandonedGraceMs);
    this.#running ??= this.store
      .sweep(expiredBefore, graceStart)
      .then((deleted) => {
        if (deleted > 0) this.options.logger.info({ deleted }, "swept idempotency keys");
        return deleted;
      })
      .catch((error: unknown) => {
        this.options.logger.error({ err: error }, "idempotency key sweep failed; retrying on the next tick");
        return 0;
      })
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }
}
