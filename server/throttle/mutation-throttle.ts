import { once } from "node:events";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { logger } from "service-kit/logger";
import { DomainError } from "../errors";

export interface ThrottleSettings {
  /** Mutations one session may send per window. */
  perSession: number;
  /** Mutations one client address may send per window, all its sessions together. */
  perAddress: number;
  windowSeconds: number;
  /** Counts in this Redis, shared by every instance on it; without it, in this process's memory. */
  redis?: { url: string; keyPrefix: string };
}

/** Per session and per address, in memory or Redis (memory again while Redis is down). */
export class MutationThrottle {
  readonly #perSession: RateLimiterAbstract;
  readonly #perAddress: RateLimiterAbstract;
  readonly #settings: ThrottleSettings;
  readonly #redis: Redis | null;
  readonly #firstConnection: Promise<unknown>;

  constructor(settings: ThrottleSettings) {
    // A command caught by a dropped connection fails after one retry, not twenty: then the insurance limiter answers.
    this.#redis = settings.redis ? new Redis(settings.redis.url, { maxRetriesPerRequest: 1 }) : null;
    this.#redis?.on("error", (error: Error) => logger.warn({ err: error }, "throttle: Redis unreachable"));
    // The first mutations wait for the first connection, rather than count apart in memory before it.
    this.#firstConnection = this.#redis
      ? once(this.#redis, "ready").catch(() => undefined)
      : Promise.resolve();
    const limiter = (name: string, points: number) => {
      const opts = { keyPrefix: name, points, duration: settings.windowSeconds };
      if (!this.#redis) return new RateLimiterMemory(opts);
      return new RateLimiterRedis({
        ...opts,
        storeClient: this.#redis,
        keyPrefix: `${settings.redis!.keyPrefix}:throttle:${name}`,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(opts),
      });
    };
    this.#perSession = limiter("session", settings.perSession);
    this.#perAddress = limiter("address", settings.perAddress);
    this.#settings = settings;
  }

  /** Counts a mutation; past either limit throws RATE_LIMITED (429) with Retry-After at the window's end. */
  async consume(sessionId: string, address: string): Promise<void> {
    await this.#firstConnection;
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

  /** Closes the Redis connection, if any, without waiting for a Redis that may be away. */
  close(): void {
    this.#redis?.disconnect();
  }
}
