import { afterEach, expect, it, vi } from "vitest";
import { CallerGoneError } from "run-once";
import type { Execution, RunResult } from "run-once";
import type { Tx } from "../db/client";
import { Account } from "./accounted-run";
import { REQUESTS_KEPT_PER_KEY } from "./request-record";
import type { RequestRecord } from "./request-record";

afterEach(() => {
  vi.useRealTimers();
});

/** A transaction handle the fake journal knows apart from the database. */
const TX = { tx: true } as unknown as Tx;

function accountWithJournal() {
  const batches: Array<{ records: RequestRecord[] }> = [];
  /** What was written at once, and on which handle. */
  const writes: Array<{ inTx: boolean; records: RequestRecord[] }> = [];
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
    write: (client: unknown, records: RequestRecord[]) => {
      writes.push({ inTx: client === TX, records: records.map((record) => ({ ...record })) });
      return Promise.resolve();
    },
    list: () => Promise.resolve([]),
    sweep: () => Promise.resolve(0),
  };
  const account = new Account(journal, {
    db: {} as never,
    instance: "test",
    finalErrors: { isFinal: (error) => error instanceof Error && error.message === "declined" },
    logger: { warn: vi.fn() },
  });
  return { account, recorder: account, batches, writes, lost };
}

const arrival = (key = "k") =>
  ({ road: "client", scope: { caller: "s", path: "p", key }, fingerprint: "f", body: {} }) as const;

const result: RunResult = {
  keyId: "id",
  decision: "executed",
  generation: "abcd1234",
  expiresAt: new Date(0),
  outcome: { ok: true, data: null },
};

/** An execution whose commit runs its work on TX, as the core's does in the key's transaction. */
function execution(): Execution<Tx> {
  return {
    key: "k",
    fingerprint: "f",
    decision: "executed",
    generation: "abcd1234",
    commit: (work) => Promise.resolve(work(TX)),
  };
}

it("writes a burst of runs answered at once as one batch of ended rows once they go quiet, never while a reply waits", async () => {
  vi.useFakeTimers();
  const { account, batches } = accountWithJournal();
  for (let i = 0; i < 100; i++) account.arrived(arrival()).ended({ result });
  expect(batches).toEqual([]);
  await vi.advanceTimersByTimeAsync(200);
  expect(batches.map(({ records }) => records.length)).toEqual([100]);
  expect(batches[0]!.records.every((record) => record.decision === "executed")).toBe(true);
});

it("writes steady load, which never goes quiet, in batches of at most 100 keys; one key's storm in one batch", async () => {
  vi.useFakeTimers();
  const { account, batches } = accountWithJournal();
  const steadily = async (keyOf: (i: number) => string) => {
    for (let i = 0; i < 250; i++) {
      account.arrived(arrival(keyOf(i))).ended({ result });
      await vi.advanceTimersByTimeAsync(10);
    }
    await vi.advanceTimersByTimeAsync(200);
  };
  await steadily((i) => `k${i}`);
  await steadily(() => "storm");
  expect(batches.map(({ records }) => records.length)).toEqual([100, 100, 50, 250]);
});

it("writes a run in flight, then completes that row in place when it ends", async () => {
  const { account, recorder, batches } = accountWithJournal();
  const run = account.arrived(arrival());
  await recorder.flush();
  expect(batches[0]!.records.map((r) => [r.id, r.decision, r.status])).toEqual([[run.id, null, null]]);

  run.ended({ result }, 200);
  await recorder.flush();
  expect(batches[1]!.records.map((r) => [r.id, r.decision, r.status])).toEqual([[run.id, "executed", 200]]);
});

it("writes a run's record in the transaction of the work its commit describes, ended as the work came to", async () => {
  const { account, writes } = accountWithJournal();
  const run = account.arrived({ ...arrival(), answers: { ok: 200, error: () => 402 } });
  const claimed = run.claimed(execution());
  await claimed.commit(() => Promise.resolve("charged"));
  expect(
    writes.map((w) => [w.inTx, w.records.map((r) => [r.id, r.decision, r.status, r.generation])]),
  ).toEqual([[true, [[run.id, "executed", 200, "abcd1234"]]]]);

  // A final error (a decline) commits with its record; any other rolls both back, and nothing is written with it.
  const declined = account.arrived({ ...arrival("d"), answers: { ok: 200, error: () => 402 } });
  await expect(
    declined.claimed(execution()).commit(() => Promise.reject(new Error("declined"))),
  ).rejects.toThrow();
  const failed = account.arrived({ ...arrival("f"), answers: { ok: 200, error: () => 503 } });
  await expect(failed.claimed(execution()).commit(() => Promise.reject(new Error("down")))).rejects.toThrow();
  expect(writes.slice(1).map((w) => w.records.map((r) => [r.id, r.status]))).toEqual([[[declined.id, 402]]]);
});

it("writes a provider call, with its run, before it leaves; its reply in a later batch", async () => {
  const { account, recorder, batches, writes } = accountWithJournal();
  const run = account.arrived(arrival());
  run.claimed(execution());
  const replied = await run.called({
    orderId: "ord_1",
    path: "POST /v1/payment_intents",
    key: "k/charge",
    paymentKey: "k",
    try: 1,
  });
  expect(writes).toHaveLength(1);
  const [runRow, callRow] = writes[0]!.records;
  expect([runRow!.id, runRow!.generation]).toEqual([run.id, "abcd1234"]);
  expect(callRow).toMatchObject({
    scope: { caller: "ord_1", key: "k/charge" },
    decision: null,
    status: null,
  });
  expect(callRow!.body).toMatchObject({ run: run.id, try: 1, requestId: null });

  replied({ status: 200, decision: "executed", requestId: "req_1" });
  await recorder.flush();
  const answered = batches.flatMap((b) => b.records).find((r) => r.id === callRow!.id);
  expect(answered).toMatchObject({ status: 200, decision: "executed", body: { requestId: "req_1" } });
  // The run's row was written with the call: its batch does not write it again.
  expect(batches.flatMap((b) => b.records).some((r) => r.id === run.id)).toBe(false);
});

it("notes a lost reply in the pending record, or on the written row once it is written", async () => {
  const { account, recorder, batches, lost } = accountWithJournal();
  const pending = account.arrived(arrival());
  pending.ended({ result });
  account.replyLost(pending.id);
  await recorder.flush();
  expect(batches[0]?.records[0]?.replyLost).toBe(true);

  const written = account.arrived(arrival());
  written.ended({ result });
  await recorder.flush();
  account.replyLost(written.id);
  await recorder.flush();
  expect(batches[1]?.records[0]?.replyLost).toBe(false);
  expect(lost).toEqual([written.id]);
});

it("keeps the key's generation of a run that claims it after its client went away, and its ending in its transaction", async () => {
  const { account, recorder, batches, writes } = accountWithJournal();
  const run = account.arrived({ ...arrival(), answers: { ok: 200, error: () => 503 } });
  run.ended({ error: new CallerGoneError() }, 499);
  await recorder.flush();
  const claimed = run.claimed({ ...execution(), decision: "taken_over", generation: "efgh5678" });
  await recorder.flush();
  await claimed.commit(() => Promise.resolve(null));
  expect(batches.map(({ records }) => records.map((r) => [r.decision, r.generation, r.keyState]))).toEqual([
    [["abandoned", null, null]],
    [["abandoned", "efgh5678", "in_progress"]],
  ]);
  expect(writes[0]!.records.map((r) => [r.decision, r.status])).toEqual([["abandoned", 499]]);
});
