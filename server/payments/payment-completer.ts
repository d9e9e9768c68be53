import { KeyInProgressError } from "run-once";
import type { RunOnce } from "run-once";
import type { Account } from "../account/accounted-run";
import type { Logger } from "service-kit/logger";
import { PeriodicJob } from "service-kit/periodic-job";
import type { Db, Tx } from "../db/client";
import type { AppMetrics } from "../observability/app-metrics";
import type { PaymentProvider } from "../payment-provider/payment-provider";
import { finishPayment } from "./charge-order";
import { PAYMENT_KEYSPACE } from "./keyspace";

/** Payments looked at per tick: the job is bounded, the next tick takes the rest. */
const BATCH = 20;
/** The longest wait between two tries of one attempt. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** Re-drives, under their own keys, due payments past their recovery point whose client never came back. */
export class PaymentCompleter extends PeriodicJob<number> {
  constructor(
    private readonly deps: {
      db: Db;
      provider: PaymentProvider;
      runOnce: RunOnce<Tx>;
      metrics: Pick<AppMetrics, "paymentCompleted" | "paymentNeedsReview">;
      logger: Pick<Logger, "info" | "warn">;
      /** Where its runs are recorded beside the clients' requests, so that the order's account shows them. */
      account: Pick<Account, "arrived">;
      /** The first backoff: a lease, the time a live owner's retries may still take. */
      backoffMs: number;
      maxFailures?: number;
      redriveCutoffMs: number;
      clock?: () => Date;
    },
  ) {
    // Each pass resolves with how many payments it settled.
    super(
      () => this.#pass(),
      (error) => deps.logger.warn({ err: error }, "the completer's pass failed; the next one retries"),
    );
  }

  async #pass(): Promise<number> {
    const now = this.#now();
    const due = await this.deps.db.paymentAttempt.findMany({
      where: { status: "OPEN", nextTryAt: { lte: now } },
      include: { order: { select: { sessionId: true, totalCents: true } } },
      orderBy: { nextTryAt: "asc" },
      take: BATCH,
    });
    let finished = 0;
    for (const attempt of due) {
      const { paymentMethodId, requestFingerprint, providerCalledAt } = attempt;
      if (!paymentMethodId || !requestFingerprint || !providerCalledAt) continue;
      const scope = { caller: attempt.order.sessionId, path: PAYMENT_KEYSPACE, key: attempt.key };
      const run = this.deps.account.arrived({
        road: "completer",
        scope,
        fingerprint: requestFingerprint.slice(0, 12),
        body: {},
      });
      const payment = {
        run,
        orderId: attempt.orderId,
        paymentKey: attempt.key,
        amountCents: attempt.order.totalCents,
        paymentMethodId,
        providerCalledAt,
      };
      try {
        const result = await this.deps.runOnce.run({ scope, fingerprint: requestFingerprint }, (execution) =>
          finishPayment({ ...this.deps, execution: run.claimed(execution) }, payment),
        );
        run.ended({ result });
        finished += 1;
        // A stored failure is a decline, or a look-up past the cutoff that found no charge (review).
        const reason = result.outcome.ok ? null : (result.outcome.error as { reason?: string }).reason;
        this.deps.metrics.paymentCompleted(
          reason === null ? "charged" : reason === "CARD_DECLINED" ? "declined" : "needs_review",
        );
        this.deps.logger.info({ decision: result.decision }, "the completer finished a stranded payment");
      } catch (error) {
        run.ended({ error });
        // Its owner is alive: not stranded after all; look again a lease later.
        if (error instanceof KeyInProgressError) await this.#later(attempt.key, attempt.completerFailures);
        else await this.#failed(attempt.key, attempt.completerFailures + 1, error);
      }
    }
    return finished;
  }

  /** Backs the attempt off, or past the bound sends it to review (an update only while it is still open). */
  async #failed(key: string, failures: number, error: unknown): Promise<void> {
    const giveUp = failures >= (this.deps.maxFailures ?? 8);
    const data = giveUp
      ? {
          status: "NEEDS_REVIEW" as const,
          completerFailures: failures,
          settledBy: "completer",
          settledAt: this.#now(),
        }
      : { completerFailures: failures, nextTryAt: this.#backedOff(failures) };
    await this.deps.db.paymentAttempt.updateMany({ where: { key, status: "OPEN" }, data });
    if (giveUp) this.deps.metrics.paymentNeedsReview("completer_gave_up");
    else this.deps.metrics.paymentCompleted("retry_later");
    this.deps.logger.warn(
      { err: error, key, failures },
      giveUp
        ? "the completer gave up on a payment: it needs review"
        : "the completer could not finish a payment; it backs off",
    );
  }

  async #later(key: string, failures: number): Promise<void> {
    await this.deps.db.paymentAttempt.updateMany({
      where: { key, status: "OPEN" },
      data: { nextTryAt: this.#backedOff(failures) },
    });
  }

  /** Exponential backoff from a lease, with equal jitter so that instances and rows spread out. */
  #backedOff(failures: number): Date {
    const ceiling = Math.min(MAX_BACKOFF_MS, this.deps.backoffMs * 2 ** Math.max(0, failures - 1));
    return new Date(this.#now().getTime() + ceiling / 2 + Math.random() * (ceiling / 2));
  }

  #now(): Date {
    return (this.deps.clock ?? (() => new Date()))();
  }
}
