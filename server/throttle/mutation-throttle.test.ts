import getPort from "get-port";
import { afterEach, describe, expect, test } from "vitest";
import { TEST_REDIS_URL, uniqueRedisKeyPrefix } from "~/testing/test-redis";
import { DomainError } from "../errors";
import { MutationThrottle } from "./mutation-throttle";
import type { ThrottleSettings } from "./mutation-throttle";

/** The throttle on its own, in memory and in a real Redis: no database, no server. */
const limits = { perSession: 3, perAddress: 5, windowSeconds: 60 };

const made: MutationThrottle[] = [];
afterEach(() => made.splice(0).forEach((throttle) => throttle.close()));

function newThrottle(redis?: ThrottleSettings["redis"]) {
  const throttle = new MutationThrottle({ ...limits, redis });
  made.push(throttle);
  return throttle;
}

/** What consume ended with: "counted", or the refusal's reason and Retry-After. */
const outcome = (throttle: MutationThrottle, session: string, address = "203.0.113.1") =>
  throttle.consume(session, address).then(
    () => "counted",
    (error: unknown) => {
      if (!(error instanceof DomainError)) throw error;
      return `${error.reason} after ${error.retryAfterSeconds} s`;
    },
  );

describe("in memory", () => {
  test("refuses a session's mutation past its limit, and an address's past its own", async () => {
    const throttle = newThrottle();
    for (let i = 0; i < limits.perSession; i++) expect(await outcome(throttle, "a")).toBe("counted");
    expect(await outcome(throttle, "a")).toBe("RATE_LIMITED after 60 s");
    // The address has one mutation left, whatever the session.
    expect(await outcome(throttle, "b")).toBe("counted");
    expect(await outcome(throttle, "c")).toBe("RATE_LIMITED after 60 s");
    expect(await outcome(throttle, "c", "203.0.113.2")).toBe("counted");
  });
});

describe("in Redis", () => {
  test("shares one count among instances", async () => {
    const redis = { url: TEST_REDIS_URL, keyPrefix: uniqueRedisKeyPrefix() };
    const instances = [newThrottle(redis), newThrottle(redis)];
    const sent = [];
    for (let i = 0; i <= limits.perSession; i++) sent.push(await outcome(instances[i % 2]!, "a"));
    expect(sent).toEqual(["counted", "counted", "counted", "RATE_LIMITED after 60 s"]);
  });

  test("counts in memory while Redis cannot be reached", async () => {
    const throttle = newThrottle({
      url: `redis://127.0.0.1:${await getPort()}`,
      keyPrefix: uniqueRedisKeyPrefix(),
    });
    for (let i = 0; i < limits.perSession; i++) expect(await outcome(throttle, "a")).toBe("counted");
    expect(await outcome(throttle, "a")).toBe("RATE_LIMITED after 60 s");
  });
});
