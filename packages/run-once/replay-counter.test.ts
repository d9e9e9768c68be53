import { afterEach, expect, it, vi } from "vitest";
import { ReplayCounter } from "./replay-counter";

afterEach(() => {
  vi.useRealTimers();
});

function counterWithStore(quietMs = 200, maxDelayMs = 5_000) {
  const writes: Array<[string, number]> = [];
  const store = {
    countReplays: (id: string, count: number) => {
      writes.push([id, count]);
      return Promise.resolve();
    },
  };
  const logger = { warn: vi.fn() };
  return { counter: new ReplayCounter(store, logger, quietMs, maxDelayMs), writes, logger };
}

it("writes a burst of replays as one count per key once they go quiet", async () => {
  vi.useFakeTimers();
  const { counter, writes } = counterWithStore();
  for (let i = 0; i < 1_000; i++) counter.add("a");
  counter.add("b", 3);
  await vi.advanceTimersByTimeAsync(199);
  expect(writes).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(writes).toEqual([
    ["a", 1_000],
    ["b", 3],
  ]);
});

it("writes at least every maxDelay while replays keep coming", async () => {
  vi.useFakeTimers();
  const { counter, writes } = counterWithStore(200, 1_000);
  for (let elapsed = 0; elapsed < 2_500; elapsed += 100) {
    counter.add("a");
    await vi.advanceTimersByTimeAsync(100);
  }
  // Never quiet for 200 ms, yet written at 1 s and 2 s.
  expect(writes).toEqual([
    ["a", 10],
    ["a", 10],
  ]);
  await counter.flush();
  expect(writes.reduce((sum, [, count]) => sum + count, 0)).toBe(25);
});

it("logs a failed write and goes on counting", async () => {
  const writes: number[] = [];
  let failing = true;
  const store = {
    countReplays: (_id: string, count: number) => {
      if (failing) return Promise.reject(new Error("database is down"));
      writes.push(count);
      return Promise.resolve();
    },
  };
  const logger = { warn: vi.fn() };
  const counter = new ReplayCounter(store, logger);
  counter.add("a", 2);
  await counter.flush();
  expect(logger.warn).toHaveBeenCalledOnce();
  failing = false;
  counter.add("a");
  await counter.flush();
  expect(writes).toEqual([1]);
});
