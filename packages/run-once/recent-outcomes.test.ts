import { expect, it } from "vitest";
import type { RunResult } from "./types";
import { RecentOutcomes } from "./recent-outcomes";

const resultExpiringAt = (expiresAt: number, keyId = "k"): RunResult =>
  ({ keyId, expiresAt: new Date(expiresAt) }) as RunResult;

it("forgets an outcome when its key expires, even inside its window", () => {
  const recent = new RecentOutcomes(60_000, 10);
  recent.remember("a", "fp", resultExpiringAt(1_000), 0);
  expect(recent.get("a", 999)?.fingerprint).toBe("fp");
  expect(recent.get("a", 1_000)).toBeUndefined();
});

it("forgets an outcome past its window, though its key lives on", () => {
  const recent = new RecentOutcomes(60_000, 10);
  recent.remember("a", "fp", resultExpiringAt(86_400_000), 0);
  expect(recent.get("a", 59_999)).toBeDefined();
  expect(recent.get("a", 60_000)).toBeUndefined();
});

it("keeps at most its capacity, dropping the oldest", () => {
  const recent = new RecentOutcomes(60_000, 2);
  for (const id of ["a", "b", "c"]) recent.remember(id, "fp", resultExpiringAt(86_400_000, id), 0);
  expect(recent.get("a", 1)).toBeUndefined();
  expect(recent.get("b", 1)?.result.keyId).toBe("b");
  expect(recent.get("c", 1)?.result.keyId).toBe("c");
});

it("remembers nothing with a window of 0: every duplicate reads the store", () => {
  const recent = new RecentOutcomes(0);
  recent.remember("a", "fp", resultExpiringAt(86_400_000), 0);
  expect(recent.get("a", 0)).toBeUndefined();
});
