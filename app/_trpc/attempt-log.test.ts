import { describe, expect, it } from "vitest";
import { AttemptLog } from "./attempt-log";
import type { Attempt } from "./attempt-log";

const answered = { outcome: "succeeded", status: 200, decision: "executed" } as const;

describe("the attempt log", () => {
  it("keeps concurrent calls apart: each answer ends its own attempt, none is called interrupted", () => {
    const log = new AttemptLog();
    const first = log.startRun().recorder("pay_1");
    const second = log.startRun().recorder("pay_1");
    first.started(100);
    second.started(110);
    second.ended(150, { ...answered, decision: "coalesced" });
    first.ended(200, answered);
    expect(log.attempts).toMatchObject([
      { number: 1, run: 1, startedAt: 100, endedAt: 200, decision: "executed" },
      { number: 2, run: 2, startedAt: 110, endedAt: 150, decision: "coalesced" },
    ]);
  });

  it("ends the attempts in flight when the page goes away, at that moment", () => {
    const log = new AttemptLog();
    log.startRun().recorder("pay_1").started(100);
    log.interruptInFlight(400);
    expect(log.attempts[0]).toMatchObject({ outcome: "interrupted", endedAt: 400 });
  });

  it("goes on from restored attempts: one left in flight was cut off, with no known end", () => {
    const restored: Attempt[] = [
      {
        number: 1,
        run: 1,
        key: "pay_1",
        startedAt: 100,
        endedAt: null,
        outcome: "in_flight",
        status: null,
        decision: null,
      },
    ];
    const log = new AttemptLog(restored);
    log.startRun().recorder("pay_1").started(900);
    expect(log.attempts).toMatchObject([
      { number: 1, run: 1, outcome: "interrupted", endedAt: null },
      { number: 2, run: 2, outcome: "in_flight" },
    ]);
  });

  it("persists every change and tells its subscribers, with a new snapshot each time", () => {
    const persisted: number[] = [];
    const log = new AttemptLog([], (attempts) => persisted.push(attempts.length));
    let told = 0;
    const unsubscribe = log.subscribe(() => told++);
    const before = log.attempts;
    const recorder = log.startRun().recorder("pay_1");
    recorder.started(1);
    recorder.ended(2, answered);
    unsubscribe();
    log.startRun().recorder("pay_1").started(3);
    expect(persisted).toEqual([1, 1, 2]);
    expect(told).toBe(2);
    expect(log.attempts).not.toBe(before);
  });
});
