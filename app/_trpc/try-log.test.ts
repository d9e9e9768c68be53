import { describe, expect, it } from "vitest";
import { TryLog } from "./try-log";
import type { TabTry } from "./try-log";

const answered = { outcome: "succeeded", status: 200, decision: "executed" } as const;

describe("the try log", () => {
  it("keeps concurrent calls apart: each answer ends its own try, none is called interrupted", () => {
    const log = new TryLog();
    const first = log.startRun().recorder("pay_1");
    const second = log.startRun().recorder("pay_1");
    first.started(100);
    second.started(110);
    second.ended(150, { ...answered, decision: "coalesced" });
    first.ended(200, answered);
    expect(log.tries).toMatchObject([
      { number: 1, run: 1, startedAt: 100, endedAt: 200, decision: "executed" },
      { number: 2, run: 2, startedAt: 110, endedAt: 150, decision: "coalesced" },
    ]);
  });

  it("ends the tries in flight when the page goes away, at that moment", () => {
    const log = new TryLog();
    log.startRun().recorder("pay_1").started(100);
    log.interruptInFlight(400);
    expect(log.tries[0]).toMatchObject({ outcome: "interrupted", endedAt: 400 });
  });

  it("goes on from restored tries: one left in flight was cut off, with no known end", () => {
    const restored: TabTry[] = [
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
    const log = new TryLog(restored);
    log.startRun().recorder("pay_1").started(900);
    expect(log.tries).toMatchObject([
      { number: 1, run: 1, outcome: "interrupted", endedAt: null },
      { number: 2, run: 2, outcome: "in_flight" },
    ]);
  });

  it("persists every change and tells its subscribers, with a new snapshot each time", () => {
    const persisted: number[] = [];
    const log = new TryLog([], (tries) => persisted.push(tries.length));
    let told = 0;
    const unsubscribe = log.subscribe(() => told++);
    const before = log.tries;
    const recorder = log.startRun().recorder("pay_1");
    recorder.started(1);
    recorder.ended(2, answered);
    unsubscribe();
    log.startRun().recorder("pay_1").started(3);
    expect(persisted).toEqual([1, 1, 2]);
    expect(told).toBe(2);
    expect(log.tries).not.toBe(before);
  });
});
