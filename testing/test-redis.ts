/** The Redis server the tests count in (the one on this project's machines and CI). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A key prefix of one test's own, so that tests running side by side on one Redis never share a count. */
export const uniqueRedisKeyPrefix = (): string => `test-${crypto.randomUUID()}`;
