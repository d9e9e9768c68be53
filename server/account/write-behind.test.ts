import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { WriteBehind } from "./write-behind";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const batchesOf = (maxItems = 2_000) => {
  const batches: string[][] = [];
  const behind = new WriteBehind<string>(
    async (batch) => void batches.push(batch),
    (item) => item.split("/")[0]!,
    200,
    100,
    maxItems,
  );
  return { batches, behind };
};

test("a storm on one key is one batch however long it lasts: 30 s of arrivals 150 ms apart, written once quiet", async () => {
  const { batches, behind } = batchesOf();
  for (let i = 0; i < 200; i++) {
    behind.put(`r${i}`, `key/${i}`);
    await vi.advanceTimersByTimeAsync(150);
  }
  expect(batches).toEqual([]);
  await vi.advanceTimersByTimeAsync(200);
  expect(batches.map((batch) => batch.length)).toEqual([200]);
});

test("a batch goes on the next turn at its item bound (memory), and at its key bound (the write's size)", async () => {
  const byItems = batchesOf(3);
  for (const id of ["a", "b", "c"]) byItems.behind.put(id, `key/${id}`);
  await vi.advanceTimersByTimeAsync(0);
  expect(byItems.batches).toEqual([["key/a", "key/b", "key/c"]]);

  const byKeys = batchesOf();
  for (let i = 0; i < 100; i++) byKeys.behind.put(`r${i}`, `key${i}/x`);
  await vi.advanceTimersByTimeAsync(0);
  expect(byKeys.batches.map((batch) => batch.length)).toEqual([100]);
});
