import { TRPCError, getTRPCErrorFromUnknown } from "@trpc/server";
import type { Db, Tx } from "../db/client";
import { DomainError } from "../errors";
import type { Logger } from "../logger";
import type { RunOnceObserver, RunOnceOutcome } from "../observability/run-once-events";
import type { KeyScope } from "./key";
import { scopeId } from "./key";
import type { KeyWatcher } from "./key-watcher";
import { RecentOutcomes } from "./recent-outcomes";
import { ReplayCounter } from "./replay-counter";
import { errorOutcome, isFinalError, successOutcome } from "./outcome";
import type { StoredOutcome } from "./outcome";
import { DEFAULT_RUN_ONCE_SETTINGS } from "./settings";
import type { RunOnceSettings } from "./settings";
import type { Claim, ClaimTerms, IdempotencyStore, KeyRecord } from "./store";

/** What happened to one request, for logs, metrics and response headers. */
export type Decision =
  | "executed" // claimed an absent key and ran the handler
  | "replayed" // found the key completed and returned its outcome
  | "coalesced" // joined an in-flight duplicate in this process and shared its outcome
  | "taken_over" // found an IN_PROGRESS key whose lease had run out, took it and ran
  | "expired"; // found a completed key past its retention, treated it as absent and ran

export interface RunOnceRequest {
  scope: KeyScope;
  fingerprint: string;
  /** The caller's request signal: aborting it stops the caller's wait, never the shared execution. */
  signal?: AbortSignal;
}

export interface RunOnceResult {
  keyId: string;
  outcome: StoredOutcome;
  decision: Decision;
  /** Until when the key is retained and replayed. */
  expiresAt: Date;
}

/** What the handler of a run-once procedure gets as `ctx.runOnce`. */
export interface KeyTransaction {
  /** The key being run, from the input field or the Idempotency-Key header. */
  key: string;
  /**
   * Runs `work` in a database transaction that also completes the key with
   * work's result, so the side effect and the completion commit together or
   * not at all. A final error thrown by `work` (a DomainError such as
   * CARD_DECLINED) is committed as the outcome along with what `work` wrote
   * before throwing; any other error rolls everything back and releases the key.
   * Its result is the procedure's result. Only what commit() decides is
   * stored: a handler that throws before calling it (a refusal) leaves no key.
   */
  commit<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

export type HandlerResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };
export type Handler = (keyTransaction: KeyTransaction) => Promise<HandlerResult>;

interface InFlight {
  fingerprint: string;
  settled: Promise<RunOnceResult>;
}

export interface CoordinatorDeps {
  db: Db;
  store: IdempotencyStore;
  watcher: KeyWatcher;
  logger: Logger;
  /** Told how every request ended (logs, metrics). */
  observer?: RunOnceObserver;
  clock?: () => Date;
}

/**
 * Runs a handler at most once per key scope, following the key state grid:
 *
 * | key state        | same payload                | different payload |
 * | ---------------- | --------------------------- | ----------------- |
 * | absent / expired | claim, execute              | claim, execute    |
 * | in progress      | wait for the first outcome  | 422               |
 * | completed        | replay the stored outcome   | 422               |
 *
 * Duplicates in this process share one promise per key; duplicates in other
 * processes meet at the store's unique constraint and wait for the row.
 */
export class RunOnceCoordinator {
  readonly #inFlight = new Map<string, InFlight>();
  readonly #recent = new RecentOutcomes();
  readonly #replays: ReplayCounter;
  readonly #clock: () => Date;

  constructor(
    private readonly deps: CoordinatorDeps,
    readonly settings: RunOnceSettings = DEFAULT_RUN_ONCE_SETTINGS,
  ) {
    this.#clock = deps.clock ?? (() => new Date());
    this.#replays = new ReplayCounter(deps.store, deps.logger);
  }

  /** Writes the replay counts gathered in memory now (they are written within 5 s anyway). */
  flushReplayCounts(): Promise<void> {
    return this.#replays.flush();
  }

  async run(request: RunOnceRequest, handler: Handler): Promise<RunOnceResult> {
    const startedAt = performance.now();
    const joined = this.#inFlight.has(scopeId(request.scope));
    const observe = (outcome: RunOnceOutcome) =>
      this.deps.observer?.observe({
        scope: request.scope,
        outcome,
        durationMs: performance.now() - startedAt,
      });
    try {
      const result = await this.#run(request, handler);
      observe(result.decision);
      return result;
    } catch (error) {
      observe(outcomeOfFailure(error, joined));
      throw error;
    }
  }

  async #run(request: RunOnceRequest, handler: Handler): Promise<RunOnceResult> {
    const id = scopeId(request.scope);
    const recent = this.#recent.get(id, this.#clock().getTime());
    if (recent) {
      if (recent.fingerprint !== request.fingerprint) throw keyReused();
      this.#replays.add(recent.result.keyId);
      return { ...recent.result, decision: "replayed" };
    }
    const current = this.#inFlight.get(id);
    if (current) return this.#join(current, request);

    const entry: InFlight = {
      fingerprint: request.fingerprint,
      settled: this.#resolve(request, handler)
        .then((result) => {
          this.#recent.remember(id, request.fingerprint, result, this.#clock().getTime());
          return result;
        })
        .finally(() => this.#inFlight.delete(id)),
    };
    // Callers await `settled`; this only keeps a failure whose callers all
    // went away from being reported as unhandled.
    entry.settled.catch(() => undefined);
    this.#inFlight.set(id, entry);
    return abandonable(entry.settled, request.signal);
  }

  async #join(entry: InFlight, request: RunOnceRequest): Promise<RunOnceResult> {
    if (entry.fingerprint !== request.fingerprint) throw keyReused();
    const result = await abandonable(withinWait(entry.settled, this.settings.waitMs), request.signal);
    this.#replays.add(result.keyId);
    return { ...result, decision: "coalesced" };
  }

  async #resolve(request: RunOnceRequest, handler: Handler): Promise<RunOnceResult> {
    const deadline = this.#clock().getTime() + this.settings.waitMs;
    let record: KeyRecord | null = null;
    // The generation of the key (row and owner) this request has said it waits on.
    let announced: string | undefined;
    for (let attempt = 0; ; attempt++) {
      if (!record) {
        const claim = await this.deps.store.claim(request.scope, this.#terms(request));
        if ("claimed" in claim) return this.#execute(request, claim.claimed, handler, "executed");
        record = claim.existing;
      }

      const now = this.#clock().getTime();
      if (record.state === "COMPLETED" && record.expiresAt.getTime() <= now) {
        const claim = await this.deps.store.takeOver(record, this.#terms(request));
        if (claim) return this.#execute(request, claim, handler, "expired");
        record = null;
        continue;
      }
      if (record.fingerprint !== request.fingerprint) throw keyReused();
      if (record.state === "COMPLETED" && record.outcome) {
        this.#replays.add(record.id);
        return {
          keyId: record.id,
          outcome: record.outcome,
          decision: "replayed",
          expiresAt: record.expiresAt,
        };
      }
      if (record.lockedUntil.getTime() <= now) {
        const claim = await this.deps.store.takeOver(record, this.#terms(request));
        if (claim) return this.#execute(request, claim, handler, "taken_over");
        record = null;
        continue;
      }
      if (now >= deadline) throw keyInProgress(record.lockedUntil.getTime() - now);
      // Where completions are pushed, tell the owner that someone waits: once
      // per generation, since a takeover or a new claim starts unannounced.
      if (this.deps.store.markAwaited && announced !== `${record.id}:${record.token}`) {
        announced = `${record.id}:${record.token}`;
        await this.deps.watcher.listen?.(); // listening first, so the notification cannot slip by
        if (!(await this.deps.store.markAwaited(record))) {
          record = await this.deps.store.read(request.scope);
          continue;
        }
      }

      await this.deps.watcher.wait(
        record.id,
        attempt,
        Math.min(deadline, record.lockedUntil.getTime()) - this.#clock().getTime(),
      );
      record = await this.deps.store.read(request.scope);
    }
  }

  async #execute(
    request: RunOnceRequest,
    claim: Claim,
    handler: Handler,
    decision: Decision,
  ): Promise<RunOnceResult> {
    let committed: { outcome: StoredOutcome; expiresAt: Date } | undefined;
    const keyTransaction: KeyTransaction = {
      key: request.scope.key,
      commit: async (work) => {
        if (committed) throw new Error("commit() completes the key, so it runs once per execution");
        let finalError: TRPCError | undefined;
        const done = await this.deps.db.$transaction(async (tx) => {
          let data: Awaited<ReturnType<typeof work>> | undefined;
          let outcome: StoredOutcome;
          try {
            data = await work(tx);
            outcome = successOutcome(data);
          } catch (error) {
            if (!isFinalError(error)) throw error;
            finalError = error;
            outcome = errorOutcome(error);
          }
          const { expiresAt } = await this.deps.store.complete(claim, outcome, this.#completedAt(), tx);
          return { data, outcome, expiresAt };
        });
        committed = { outcome: done.outcome, expiresAt: done.expiresAt };
        if (finalError) throw finalError;
        return done.data as Awaited<ReturnType<typeof work>>;
      },
    };

    const result = await handler(keyTransaction).catch((error: unknown): HandlerResult => ({
      ok: false,
      error: getTRPCErrorFromUnknown(error),
    }));
    // Once committed, the stored outcome is the answer, whatever the handler did afterwards.
    if (committed) return { keyId: claim.id, decision, ...committed };

    if (result.ok) {
      const outcome = successOutcome(result.data);
      const { expiresAt } = await this.deps.store.complete(claim, outcome, this.#completedAt());
      return { keyId: claim.id, outcome, decision, expiresAt };
    }

    // Nothing was committed, so nothing was decided: a refusal before any write
    // (a wrong amount, an unknown order) and a crash alike release the key, and
    // the next request with it runs normally. A refusal keeps its own status.
    await this.deps.store.release(claim).catch((error: unknown) => {
      this.deps.logger.error({ err: error }, "could not release a key; it frees when its lease ends");
    });
    throw asTransient(result.error);
  }

  #terms(request: RunOnceRequest): ClaimTerms {
    return {
      fingerprint: request.fingerprint,
      now: this.#clock(),
      leaseMs: this.settings.leaseMs,
      ttlMs: this.settings.ttlMs,
    };
  }

  #completedAt() {
    return { now: this.#clock(), ttlMs: this.settings.ttlMs };
  }
}

/** How a failed request ended, for logs and metrics; a joiner shares the failure it joined. */
function outcomeOfFailure(error: unknown, joined: boolean): RunOnceOutcome {
  if (error instanceof DomainError) {
    if (error.reason === "IDEMPOTENCY_KEY_IN_PROGRESS") return "conflict";
    if (error.reason === "IDEMPOTENCY_KEY_REUSED") return "mismatch";
    if (error.reason === "IDEMPOTENCY_LEASE_LOST") return "lease_lost";
  }
  if (error instanceof TRPCError && error.code === "CLIENT_CLOSED_REQUEST") return "abandoned";
  if (joined) return "coalesced";
  return isFinalError(error) || (error instanceof TRPCError && error.code === "NOT_FOUND")
    ? "refused"
    : "released";
}

function keyReused(): DomainError {
  return new DomainError(
    "IDEMPOTENCY_KEY_REUSED",
    "This idempotency key was already used with a different request body. Use a new key for a new operation.",
  );
}

function keyInProgress(leaseLeftMs: number): DomainError {
  return new DomainError(
    "IDEMPOTENCY_KEY_IN_PROGRESS",
    "A request with this idempotency key is still in progress. Retry with the same key after Retry-After seconds.",
    { retryAfterSeconds: Math.max(1, Math.min(5, Math.ceil(leaseLeftMs / 1000))) },
  );
}

/** Errors our own machinery raised pass through; an unexpected crash becomes a retryable 503. */
function asTransient(error: TRPCError): TRPCError {
  if (error instanceof DomainError || error.code !== "INTERNAL_SERVER_ERROR") return error;
  return new DomainError(
    "TRANSIENT_FAILURE",
    "The operation failed before it was committed, so nothing happened. Retry with the same key.",
    { cause: error, retryAfterSeconds: 1 },
  );
}

function withinWait<T>(promise: Promise<T>, waitMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(keyInProgress(waitMs)), waitMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The caller may stop waiting (its client went away); the shared promise runs on regardless. */
function abandonable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(clientClosed());
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(clientClosed());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  });
}

function clientClosed(): TRPCError {
  return new TRPCError({
    code: "CLIENT_CLOSED_REQUEST",
    message: "The client went away; the operation continues and its outcome will be replayed.",
  });
}
