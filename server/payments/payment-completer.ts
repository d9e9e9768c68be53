import { KeyInProgressError } from "run-once";
import type { RunOnce } from "run-once";
import type { Logger } from "service-kit/logger";
import type { Db, Tx } from "../db/client";
import type { AppMetrics } from "../observability/app-metrics";
import type { PaymentProvider } from "../payment-provider/payment-provider";
import { finishPayment } from "./charge-order";
import { PAYMENT_KEYSPACE } from "./keyspace";

/** Payments looked at per tick: the job is bounded, the next tick takes the rest. */
const BATCH = 20;

/**
 * Finishes the payments whose client never came back: an attempt that passed
 * its recovery point (the provider may have charged) and is still open after
 * `olderThanMs`. Each is re-driven under the payment's own key, through the
 * run-once core: while a live owner holds the key the completer waits its
 * turn (KeyInProgressError: next tick); a dead owner's key is taken over after
 * its lease; then the provider is asked again with the same key, and whatever
 * it answers (its first charge, replayed, or a decline) is recorded. A
 * provider that does not answer leaves the key released for the next tick.
 */
export class PaymentCompleter {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;

  constructor(
    private readonly deps: {
      db: Db;
      provider: PaymentProvider;
      runOnce: RunOnce<Tx>;
      metrics: Pick<AppMetrics, "paymentCompleted">;
      logger: Pick<Logger, "info" | "warn">;
      olderThanMs: number;
      clock?: () => Date;
    },
  ) {}

  start(intervalMs: number): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.tick(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One pass; overlapping ticks share the pass in progress. Resolves with how many payments it finished. */
  tick(): Promise<number> {
    this.#running ??= this.#pass().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #pass(): Promise<number> {
    const now = (this.deps.clock ?? (() => new Date()))();
    const stranded = await this.deps.db.paymentAttempt.findMany({
      where: { status: "OPEN", providerCalledAt: { lt: new Date(now.getTime() - this.deps.olderThanMs) } },
      include: { order: { select: { sessionId: true, totalCents: true } } },
      orderBy: { providerCalledAt: "asc" },
      take: BATCH,
    });
    let finished = 0;
    for (const attempt of stranded) {
      if (!attempt.paymentMethodId || !attempt.cardLast4 || !attempt.requestFingerprint) continue;
      const payment = {
        orderId: attempt.orderId,
        paymentKey: attempt.key,
        amountCents: attempt.order.totalCents,
        paymentMethodId: attempt.paymentMethodId,
        cardLast4: attempt.cardLast4,
      };
      try {
        const result = await this.deps.runOnce.run(
          {
            scope: { caller: attempt.order.sessionId, path: PAYMENT_KEYSPACE, key: attempt.key },
            fingerprint: attempt.requestFingerprint,
          },
          (execution) => finishPayment({ provider: this.deps.provider, execution }, payment, "completer"),
        );
        finished += 1;
        this.deps.metrics.paymentCompleted(result.outcome.ok ? "charged" : "declined");
        this.deps.logger.info({ decision: result.decision }, "the completer finished a stranded payment");
      } catch (error) {
        if (error instanceof KeyInProgressError) continue; // its owner is alive: not stranded after all
        this.deps.metrics.paymentCompleted("retry_later");
        this.deps.logger.warn(
          { err: error },
          "the completer could not finish a payment; the next tick retries",
        );
      }
    }
    return finished;
  }
}
