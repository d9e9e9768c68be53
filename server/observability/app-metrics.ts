import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { RUN_ONCE_OUTCOMES } from "run-once";
import type { RunOnceEvent, RunOnceObserver, RunOnceOutcome } from "run-once";

/** Per-process Prometheus metrics: run-once outcomes, coalesced waits, statements, and Node's own. */
export class AppMetrics implements RunOnceObserver {
  readonly registry = new Registry();
  readonly #outcomes = new Counter({
    name: "idempotency_requests_total",
    help: "Run-once requests by how they ended.",
    labelNames: ["procedure", "outcome"] as const,
    registers: [this.registry],
  });
  readonly #coalescedWait = new Histogram({
    name: "idempotency_coalesced_wait_seconds",
    help: "How long duplicates waited for the execution they joined.",
    labelNames: ["procedure"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly #queries = new Counter({
    name: "db_queries_total",
    help: "Statements sent to the database through Prisma.",
    registers: [this.registry],
  });

  readonly #roundTrips = new Counter({
    name: "db_round_trips_total",
    help: "Round trips to the database: every statement, and each transaction's BEGIN.",
    registers: [this.registry],
  });

  readonly #completed = new Counter({
    name: "payments_completed_by_completer_total",
    help: "Payments the background completer finished after their client went away, by result.",
    labelNames: ["result"] as const,
    registers: [this.registry],
  });

  readonly #needsReview = new Counter({
    name: "payments_needs_review_total",
    help: "Payment attempts sent to review: no charge found past the re-drive cutoff, or the completer gave up.",
    labelNames: ["reason"] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  paymentCompleted(result: "charged" | "declined" | "needs_review" | "retry_later"): void {
    this.#completed.inc({ result });
  }

  paymentNeedsReview(reason: "no_charge_past_cutoff" | "completer_gave_up"): void {
    this.#needsReview.inc({ reason });
  }

  countQuery = (): void => {
    this.#queries.inc();
    this.#roundTrips.inc();
  };

  countBegin = (): void => this.#roundTrips.inc();

  observe(event: RunOnceEvent): void {
    this.#outcomes.inc({ procedure: event.scope.path, outcome: event.outcome });
    if (event.outcome === "coalesced") {
      this.#coalescedWait.observe({ procedure: event.scope.path }, event.durationMs / 1000);
    }
  }

  /** The counters summed over procedures, for the ledger page's panel. */
  async snapshot() {
    const outcomes = Object.fromEntries(RUN_ONCE_OUTCOMES.map((outcome) => [outcome, 0])) as Record<
      RunOnceOutcome,
      number
    >;
    for (const value of (await this.#outcomes.get()).values)
      outcomes[value.labels.outcome as RunOnceOutcome] += value.value;
    const wait = (await this.#coalescedWait.get()).values;
    const total = (suffix: string) =>
      wait
        .filter((value) => value.metricName === `idempotency_coalesced_wait_seconds_${suffix}`)
        .reduce((sum, value) => sum + value.value, 0);
    return { outcomes, coalescedWait: { count: total("count"), sumSeconds: total("sum") } };
  }
}
