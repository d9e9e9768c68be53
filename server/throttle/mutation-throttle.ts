import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "../db/client";
import { DomainError } from "../errors";

export interface ThrottleSettings {
  /** Mutations one session may send per window. */
  perSession: number;
  /** Mutations one client address may send per window, all its sessions together. */
  perAddress: number;
  windowSeconds: number;
}

/**
 * Limits how fast one session, and one client address, can send mutations:
 * a fixed window per key, counted by rate-limiter-flexible. Its Prisma store
 * counts in the database that holds the idempotency keys, through the same
 * client: every instance on that database shares the counts, SQLite included
 * (where RateLimiterSQLite's own synchronous connection would block the event
 * loop while another request of this process holds the write lock), and the
 * counters live in the migrated schema (RateLimiterPostgres creates its own).
 */
export class MutationThrottle {
  readonly #perSession: RateLimiterPrisma;
  readonly #perAddress: RateLimiterPrisma;
  readonly #settings: ThrottleSettings;

  constructor(db: Db, settings: ThrottleSettings) {
    const limiter = (keyPrefix: string, points: number) =>
      new RateLimiterPrisma({
        storeClient: db,
        // The Prisma model's name on the client (RateLimitCounter in schema.prisma).
        tableName: "rateLimitCounter",
        keyPrefix,
        points,
        duration: settings.windowSeconds,
        // Past its limit, a key is refused from memory until its window ends: no database round trips.
        inMemoryBlockOnConsumed: points + 1,
      });
    this.#perSession = limiter("session", settings.perSession);
    this.#perAddress = limiter("address", settings.perAddress);
    this.#settings = settings;
  }

  /**
   * Counts one mutation against its session and its address. Past either
   * limit it throws RATE_LIMITED (429) with Retry-After: the end of the window.
   */
  async consume(sessionId: string, address: string): Promise<void> {
    const results = await Promise.allSettled([
      this.#perSession.consume(sessionId),
      this.#perAddress.consume(address),
    ]);
    const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
    const storeFailure = failures.find((failure) => !(failure instanceof RateLimiterRes));
    if (storeFailure !== undefined) {
      throw new DomainError(
        "TRANSIENT_FAILURE",
        "The request could not be counted, so nothing was done. Retry.",
        { cause: storeFailure, retryAfterSeconds: 1 },
      );
    }
    if (failures.length > 0) {
      const { perSession, perAddress, windowSeconds } = this.#settings;
      const waitMs = Math.max(...(failures as RateLimiterRes[]).map((refusal) => refusal.msBeforeNext));
      throw new DomainError(
        "RATE_LIMITED",
        `Too many requests: at most ${perSession} mutations per session and ${perAddress} per address every ${windowSeconds} s. Nothing was done; retry after Retry-After seconds.`,
        { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) },
      );
    }
  }
}
