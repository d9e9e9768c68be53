import type { Db } from "../db/client";
import type { RunOnceCoordinator } from "../idempotency/coordinator";
import type { Ledger } from "../ledger/ledger";
import type { AppMetrics } from "../observability/app-metrics";
import type { MutationThrottle } from "../throttle/mutation-throttle";

/** What every procedure can reach; tests build their own (see createContextInner). */
export interface Services {
  db: Db;
  ledger: Ledger;
  idempotency: RunOnceCoordinator;
  /** The fault-injection lab answers only where it is enabled (see env.ts). */
  labEnabled: boolean;
  /** The benchmark's baseline procedure answers only where it is enabled (see env.ts). */
  benchBaseline: boolean;
  /** This process's run-once metrics (also served at /api/metrics). */
  metrics: AppMetrics;
  /** Limits on mutations over HTTP; null: none (in-process tests). */
  throttle: MutationThrottle | null;
}

/** The HTTP exchange, when there is one: a server-side caller has none. */
export interface HttpExchange {
  requestHeaders: Headers;
  responseHeaders: Headers;
  /** Response headers describe the whole batch, so per-call headers are only set outside batches. */
  isBatch: boolean;
}

export interface Context extends Services {
  sessionId: string | null;
  http: HttpExchange | null;
}

/**
 * The context without any request plumbing, so that tests can call procedures
 * with their own database and ledger through `createCaller`.
 * @see https://trpc.io/docs/server/context#inner-and-outer-context
 */
export function createContextInner(opts: {
  services: Services;
  sessionId: string | null;
  http?: HttpExchange | null;
}): Context {
  return { ...opts.services, sessionId: opts.sessionId, http: opts.http ?? null };
}
