import { afterEach, expect, it, vi } from "vitest";
import { ATTEMPTS_KEPT_PER_KEY, AttemptRecorder } from "./attempt-recorder";
import type { AttemptRecord } from "./attempt-recorder";

afterEach(() => {
  vi.useRealTimers();
});

function recorderWithJournal() {
  const batches: AttemptRecord[][] = [];
  const lost: string[] = [];
  const journal = {
    append: (records: AttemptRecord[], cap: number) => {
      expect(cap).toBe(ATTEMPTS_KEPT_PER_KEY);
      batches.push(records.map((record) => ({ ...record })));
      return Promise.resolve();
    },
    markReplyLost: (id: string) => {
      lost.push(id);
      return Promise.resolve();
    },
  };
  return { recorder: new AttemptRecorder(journal, { warn: vi.fn() }), batches, lost };
}

function attempt(id: string): AttemptRecord {
  return {
    id,
    scope: { caller: "s", path: "p", key: "k" },
    at: new Date(0),
    instance: "test",
    generation: "abcd1234",
    decision: "executed",
    keyState: "absent",
    fingerprint: "f",
    body: {},
    status: 200,
    durationMs: 1,
    replyLost: false,
    retryAfterSeconds: null,
    keyExpiresAt: null,
  };
}

it("writes a burst of records as one batch once they go quiet, never while a reply waits", async () => {
  vi.useFakeTimers();
  const { recorder, batches } = recorderWithJournal();
  for (let i = 0; i < 100; i++) recorder.record(attempt(`a${i}`));
  expect(batches).toEqual([]);
  await vi.advanceTimersByTimeAsync(200);
  expect(batches.map((batch) => batch.length)).toEqual([100]);
});

it("notes a lost reply in the pending record, or on the written row once it is written", async () => {
  vi.useFakeTimers();
  const { recorder, batches, lost } = recorderWithJournal();
  recorder.record(attempt("pending"));
  recorder.replyLost("pending");
  await recorder.flush();
  expect(batches[0]?.[0]?.replyLost).toBe(true);

  recorder.record(attempt("written"));
  await recorder.flush();
  recorder.replyLost("written");
  await recorder.flush();
  expect(batches[1]?.[0]?.replyLost).toBe(false);
  expect(lost).toEqual(["written"]);
});
