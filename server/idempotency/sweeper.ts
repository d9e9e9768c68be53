import type { Logger } from "../logger";
import type { IdempotencyStore } from "./store";

/**
 * Deletes keys past their retention, on a timer. Expiry is also checked on
 * every read, so the sweep only bounds the table's size; a failed sweep is
 * logged and the next tick tries again.
 */
export class KeySweeper {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly logger: Pick<Logger, "info" | "error">,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  start(intervalMs: number): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.sweep(), intervalMs);
    // The server's own handles keep the process alive; this timer should not.
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One sweep; overlapping ticks share the sweep in progress. */
  sweep(): Promise<number> {
    this.#running ??= this.store
      .sweepExpired(this.clock())
      .then((deleted) => {
        if (deleted > 0) this.logger.info({ deleted }, "swept expired idempotency keys");
        return deleted;
      })
      .catch((error: unknown) => {
        this.logger.error({ err: error }, "idempotency key sweep failed; retrying on the next tick");
        return 0;
      })
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }
}
