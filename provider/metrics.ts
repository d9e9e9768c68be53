import { Counter, Registry } from "prom-client";
import { RUN_ONCE_OUTCOMES } from "run-once";
import type { RunOnceEvent, RunOnceObserver } from "run-once";

/** The provider's metrics: run-once outcomes, real charges (one per key in a storm), statements. */
export class ProviderMetrics implements RunOnceObserver {
  readonly registry = new Registry();
  readonly #outcomes = new Counter({
    name: "provider_idempotency_requests_total",
    help: "Charge requests with an Idempotency-Key, by how they ended.",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  readonly #executions = new Counter({
    name: "provider_charge_executions_total",
    help: "Charge executions that reached the card (with or without a key).",
    registers: [this.registry],
  });

  readonly #queries = new Counter({
    name: "provider_db_queries_total",
    help: "Statements sent to the provider's database through Prisma.",
    registers: [this.registry],
  });

  readonly #roundTrips = new Counter({
    name: "provider_db_round_trips_total",
    help: "Round trips to the provider's database: every statement, and each transaction's BEGIN.",
    registers: [this.registry],
  });

  countQuery = (): void => {
    this.#queries.inc();
    this.#roundTrips.inc();
  };

  countBegin = (): void => this.#roundTrips.inc();

  constructor() {
    for (const outcome of RUN_ONCE_OUTCOMES) this.#outcomes.inc({ outcome }, 0);
  }

  observe(event: RunOnceEvent): void {
    this.#outcomes.inc({ outcome: event.outcome });
  }

  chargeExecuted(): void {
    this.#executions.inc();
  }
}
