import { KeyInProgressError, KeyReusedError, LeaseLostError, RunOnceError } from "./errors";
import { execute } from "./execution";
import type { Execution, ExecutionContext, FinalErrors, Operation } from "./execution";
import { InProcessDuplicates } from "./in-process-duplicates";
import { generationOf, scopeId } from "./key";
import { PollingKeyWatcher } from "./polling-key-watcher";
import type { RunOnceObserver } from "./observer";
import type { RunOnceOutcome } from "./outcomes";
import { abandonable, retryAfterSeconds, withinWait } from "./waits";
import { DEFAULT_RUN_ONCE_SETTINGS } from "./settings";
import type { RunOnceSettings } from "./settings";
import type { IdempotencyStore, KeyWatcher } from "./store";
import type { Claim, ClaimTerms, Json, KeyRecord, KeyScope, Logger, RunResult } from "./types";

export interface RunOnceOptions<Tx> {
  store: IdempotencyStore<Tx>;
  /** How a duplicate learns that a key held elsewhere changed: polling unless given (PostgresKeyWatcher pushes). */
  watcher?: KeyWatcher;
  finalErrors: FinalErrors;
  settings?: Partial<RunOnceSettings>;
  /** Told how every request ended (logs, metrics). */
  observer?: RunOnceObserver;
  logger?: Pick<Logger, "warn" | "error">;
  clock?: () => Date;
}

export interface RunRequest {
  scope: KeyScope;
  /** The request body's fingerprint (see fingerprint()): the same key with another body is refused. */
  fingerprint: string;
  /** The caller's request signal: aborting it stops the caller's wait, never the shared execution. */
  signal?: AbortSignal;
}

const SILENT: Pick<Logger, "warn" | "error"> = { warn: () => undefined, error: () => undefined };

/** Runs an operation at most once per key scope, by the key state grid of the README. */
export class RunOnce<Tx> {
  readonly settings: RunOnceSettings;
  readonly #store: IdempotencyStore<Tx>;
  readonly #watcher: KeyWatcher;
  readonly #finalErrors: FinalErrors;
  readonly #observer: RunOnceObserver | undefined;
  readonly #logger: Pick<Logger, "warn" | "error">;
  readonly #clock: () => Date;
  readonly #local: InProcessDuplicates;

  constructor(options: RunOnceOptions<Tx>) {
    this.settings = { ...DEFAULT_RUN_ONCE_SETTINGS, ...options.settings };
    this.#store = options.store;
    this.#watcher = options.watcher ?? new PollingKeyWatcher();
    this.#finalErrors = options.finalErrors;
    this.#observer = options.observer;
    this.#logger = options.logger ?? SILENT;
    this.#clock = options.clock ?? (() => new Date());
    this.#local = new InProcessDuplicates(this.settings.recentOutcomesMs);
  }

  /** Runs `operation` unless its key ran or runs; throws the core's errors or what it threw before commit(). */
  async run(request: RunRequest, operation: Operation<Tx, unknown>): Promise<RunResult> {
    const startedAt = performance.now();
    const id = scopeId(request.scope);
    const joined = this.#local.isInFlight(id);
    const observe = (outcome: RunOnceOutcome) =>
      this.#observer?.observe({ scope: request.scope, outcome, durationMs: performance.now() - startedAt });
    try {
      const result = await this.#run(id, request, operation);
      observe(result.decision);
      return result;
    } catch (error) {
      observe(this.#outcomeOfFailure(error, joined));
      throw error;
    }
  }

  /** The data of a result, or its stored error rebuilt and thrown, as the operation first threw it. */
  unwrap(result: RunResult): Json {
    if (result.outcome.ok) return result.outcome.data;
    throw this.#finalErrors.decode(result.outcome.error);
  }

  async #run(id: string, request: RunRequest, operation: Operation<Tx, unknown>): Promise<RunResult> {
    const recent = this.#local.recent(id, request.fingerprint, this.#clock().getTime());
    if (recent) return { ...recent, decision: "replayed" };
    const inFlight = this.#local.inFlight(id, request.fingerprint);
    if (inFlight) {
      const shared = await abandonable(withinWait(inFlight, this.settings.waitMs), request.signal);
      return { ...shared, decision: "coalesced" };
    }
    const settled = this.#local.share(
      id,
      request.fingerprint,
      () => this.#resolve(request, operation),
      () => this.#clock().getTime(),
    );
    return abandonable(settled, request.signal);
  }

  /** The grid, against the store: claim, or find the key and act on its state, waiting while another owner runs. */
  async #resolve(request: RunRequest, operation: Operation<Tx, unknown>): Promise<RunResult> {
    const deadline = this.#clock().getTime() + this.settings.waitMs;
    let record: KeyRecord | null = null;
    for (let attempt = 0; ; attempt++) {
      if (!record) {
        const claim = await this.#store.claim(request.scope, this.#terms(request));
        if ("claimed" in claim) return this.#execute(request, claim.claimed, operation, "executed");
        record = claim.existing;
      }

      const now = this.#clock().getTime();
      if (record.state === "completed" && record.expiresAt.getTime() <= now) {
        const claim = await this.#store.takeOver(request.scope, record, this.#terms(request));
        if (claim) return this.#execute(request, claim, operation, "expired");
        record = null;
        continue;
      }
      if (record.fingerprint !== request.fingerprint) throw new KeyReusedError(record.state);
      if (record.state === "completed" && record.outcome) {
        return {
          keyId: record.id,
          outcome: record.outcome,
          decision: "replayed",
          generation: generationOf(record.token),
          expiresAt: record.expiresAt,
        };
      }
      const leaseOver = record.lockedUntil.getTime() <= now;
      if (leaseOver || this.#store.detectsDeadOwners) {
        // Where the store knows its owners, this wins only if the owner is gone, lease or not.
        const claim = await this.#store.takeOver(request.scope, record, this.#terms(request));
        if (claim) return this.#execute(request, claim, operation, "taken_over");
        if (!this.#store.detectsDeadOwners) {
          record = null;
          continue;
        }
      }
      if (now >= deadline)
        throw new KeyInProgressError(retryAfterSeconds(record.lockedUntil.getTime() - now));

      // A live owner renews its lease, so the lease bounds the wait only where it is what tells a dead owner.
      const until = this.#store.detectsDeadOwners
        ? deadline
        : Math.min(deadline, record.lockedUntil.getTime());
      await this.#watcher.wait(record, attempt, until - now);
      record = await this.#store.read(request.scope);
    }
  }

  /** Executes under the claim; sidelined (another execution took the key over), answers as a duplicate would. */
  async #execute(
    request: RunRequest,
    claim: Claim,
    operation: Operation<Tx, unknown>,
    decision: Execution<Tx>["decision"],
  ): Promise<RunResult> {
    const claimed = { key: request.scope.key, fingerprint: request.fingerprint };
    try {
      return await execute(this.#context(), { claim, request: claimed, operation, decision });
    } catch (error) {
      if (error instanceof LeaseLostError) return this.#resolve(request, operation);
      throw error;
    }
  }

  #context(): ExecutionContext<Tx> {
    return {
      store: this.#store,
      finalErrors: this.#finalErrors,
      logger: this.#logger,
      completedAt: () => ({ now: this.#clock(), ttlMs: this.settings.ttlMs }),
      maxWaitMs: this.settings.waitMs,
      clock: this.#clock,
      leaseMs: this.settings.leaseMs,
    };
  }

  #terms(request: RunRequest): ClaimTerms {
    return {
      fingerprint: request.fingerprint,
      now: this.#clock(),
      leaseMs: this.settings.leaseMs,
      ttlMs: this.settings.ttlMs,
    };
  }

  /** How a failed request ended, for logs and metrics; a joiner shares the failure it joined. */
  #outcomeOfFailure(error: unknown, joined: boolean): RunOnceOutcome {
    if (error instanceof RunOnceError) return error.outcome;
    if (joined) return "coalesced";
    return this.#finalErrors.isFinal(error) ? "refused" : "released";
  }
}
