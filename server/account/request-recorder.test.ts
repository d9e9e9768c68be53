import { afterEach, expect, it, vi } from "vitest";
import { REQUESTS_KEPT_PER_KEY, RequestRecorder } from "./request-recorder";
import type { RequestEnding, RequestRecord } from "./request-recorder";

afterEach(() => {
  vi.useRealTimers();
});

function recorderWithJournal() {
  const batches: Array<{ records: RequestRecord[] }> = [];
  const lost: string[] = [];
  const journal = {
    append: (records: RequestRecord[], cap: number) => {
      expect(cap).toBe(REQUESTS_KEPT_PER_KEY);
      batches.push({ records: records.map((record) => ({ ...record })) });
      return Promise.resolve();
    },
    markReplyLost: (id: string) => {
      lost.push(id);
      return Promise.resolve();
    },
  };
  return { recorder: new RequestRecorder(journal, { warn: vi.fn() }), batches, lost };
}

const request = {
  scope: { caller: "s", path: "p", key: "k" },
  instance: "test",
  fingerprint: "f",
  body: {},
  sentBy: "client" as const,
};

const executed: RequestEnding = {
  decision: "executed",
  keyState: "absent",
  generation: "abcd1234",
  status: 200,
  retryAfterSeconds: null,
  keyExpiresAt: null,
};

it("writes a burst of requests answered at once as one batch of ended rows once they go quiet, never while a reply waits", async () => {
  vi.useFakeTimers();
  const { recorder, batches } = recorderWithJournal();
  for (let i = 0; i < 100; i++) recorder.arrived(request).end(executed);
  expect(batches).toEqual([]);
  await vi.advanceTimersByTimeAsync(200);
  expect(batches.map(({ records }) => records.length)).toEqual([100]);
  expect(batches[0]!.records.every((record) => record.decision === "executed")).toBe(true);
});

it("writes steady load, which never goes quiet, in batches of at most 100 keys; one key's storm in one batch", async () => {
  vi.useFakeTimers();
  const { recorder, batches } = recorderWithJournal();
  const steadily = async (keyOf: (i: number) => string) => {
    for (let i = 0; i < 250; i++) {
      recorder.arrived({ ...request, scope: { ...request.scope, key: keyOf(i) } }).end(executed);
      await vi.advanceTimersByTimeAsync(10);
    }
    await vi.advanceTimersByTimeAsync(200);
  };
  await steadily((i) => `k${i}`);
  await steadily(() => "storm");
  expect(batches.map(({ records }) => records.length)).toEqual([100, 100, 50, 250]);
});

it("writes a request in flight, then completes that row in place when it ends", async () => {
  const { recorder, batches } = recorderWithJournal();
  const attempt = recorder.arrived(request);
  await recorder.flush();
  expect(batches[0]!.records.map((r) => [r.id, r.decision, r.status])).toEqual([[attempt.id, null, null]]);

  attempt.end(executed);
  await recorder.flush();
  expect(batches[1]!.records.map((r) => [r.id, r.decision, r.status])).toEqual([
    [attempt.id, "executed", 200],
  ]);
});

it("notes a lost reply in the pending record, or on the written row once it is written", async () => {
  const { recorder, batches, lost } = recorderWithJournal();
  const pending = recorder.arrived(request);
  pending.end(executed);
  recorder.replyLost(pending.id);
  await recorder.flush();
  expect(batches[0]?.records[0]?.replyLost).toBe(true);

  const written = recorder.arrived(request);
  written.end(executed);
  await recorder.flush();
  recorder.replyLost(written.id);
  await recorder.flush();
  expect(batches[1]?.records[0]?.replyLost).toBe(false);
  expect(lost).toEqual([written.id]);
});

it("keeps the key's generation of a request that claims it after its client went away", async () => {
  const { recorder, batches } = recorderWithJournal();
  const attempt = recorder.arrived(request);
  attempt.end({ ...executed, decision: "abandoned", keyState: null, generation: null, status: 499 });
  await recorder.flush();
  attempt.claimed({ generation: "efgh5678", keyState: "in_progress" });
  await recorder.flush();
  expect(batches.map(({ records }) => records.map((r) => [r.decision, r.generation, r.keyState]))).toEqual([
    [["abandoned", null, null]],
    [["abandoned", "efgh5678", "in_progress"]],
  ]);
});
