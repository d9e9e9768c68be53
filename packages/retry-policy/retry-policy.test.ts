import { describe, expect, it } from "vitest";
import { decideRetry, isRetryable, parseRetryAfter } from "./retry-policy";
import type { TryFailure, RetrySettings } from "./retry-policy";

const settings: RetrySettings = {
  maxTries: 5,
  baseDelayMs: 100,
  maxDelayMs: 1_000,
  tryTimeoutMs: 5_000,
  deadlineMs: 10_000,
};
const http = (status: number, retryAfterSeconds: number | null = null): TryFailure => ({
  kind: "http",
  status,
  retryAfterSeconds,
});

describe("which failures are retried", () => {
  it.each([
    ["a network error", { kind: "network" } as const],
    ["a timeout", { kind: "timeout" } as const],
    ["409 (in progress elsewhere)", http(409)],
    ["429 (throttled before anything ran)", http(429)],
    ["502", http(502)],
    ["503", http(503)],
    ["504", http(504)],
  ])("retries %s: the outcome is unknown or not yet decided", (_, failure) => {
    expect(isRetryable(failure)).toBe(true);
  });

  it.each([
    ["400", http(400)],
    ["402 (declined)", http(402)],
    ["404", http(404)],
    ["412", http(412)],
    ["422 (key reused)", http(422)],
    ["500", http(500)],
    ["a cancellation by the caller", { kind: "cancelled" } as const],
  ])("never retries %s: it is a final answer", (_, failure) => {
    expect(isRetryable(failure)).toBe(false);
    expect(decideRetry(failure, 1, 0, settings).retry).toBe(false);
  });
});

describe("backoff", () => {
  it("waits a full-jitter delay within [0, min(max, base * 2^(n-1)))", () => {
    for (const [tryNumber, ceiling] of [
      [1, 100],
      [2, 200],
      [3, 400],
      [4, 800],
    ] as const) {
      expect(decideRetry({ kind: "network" }, tryNumber, 0, settings, () => 0).delayMs).toBe(0);
      const top = decideRetry({ kind: "network" }, tryNumber, 0, settings, () => 0.999_999).delayMs;
      expect(top).toBeLessThan(ceiling);
      expect(top).toBeGreaterThanOrEqual(ceiling - 1);
    }
  });

  it("caps the delay at maxDelayMs", () => {
    const wide = { ...settings, maxTries: 20 };
    expect(decideRetry({ kind: "network" }, 15, 0, wide, () => 0.999).delayMs).toBeLessThan(1_000);
  });

  it("stops at the try cap", () => {
    expect(decideRetry({ kind: "network" }, 4, 0, settings).retry).toBe(true);
    expect(decideRetry({ kind: "network" }, 5, 0, settings).retry).toBe(false);
  });

  it("starts no retry past the overall deadline", () => {
    expect(decideRetry({ kind: "timeout" }, 1, 9_999, settings, () => 0.5).retry).toBe(false);
    expect(decideRetry({ kind: "timeout" }, 1, 5_000, settings, () => 0.5).retry).toBe(true);
  });

  it("waits at least Retry-After, but not past the deadline", () => {
    expect(decideRetry(http(409, 3), 1, 0, settings, () => 0).delayMs).toBe(3_000);
    expect(decideRetry(http(503, 2), 1, 0, settings, () => 0.999).delayMs).toBe(2_000);
    expect(decideRetry(http(409, 20), 1, 0, settings).retry).toBe(false);
  });
});

describe("Retry-After", () => {
  it("reads delay-seconds and HTTP dates", () => {
    expect(parseRetryAfter("3")).toBe(3);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter("soon")).toBeNull();
    const now = Date.parse("2026-12-02T12:00:00Z");
    expect(parseRetryAfter("Wed, 02 Dec 2026 12:00:05 GMT", now)).toBe(5);
  });
});
