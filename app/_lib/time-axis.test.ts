import { describe, expect, it } from "vitest";
import { timeAxis } from "./time-axis";

describe("the timeline's time axis", () => {
  it("is linear in time when nothing sits idle for long", () => {
    const axis = timeAxis([
      { start: 1_000, end: 1_500 },
      { start: 1_800, end: 3_000 },
    ]);
    expect(axis.gaps).toEqual([]);
    expect(axis.x(1_000)).toBe(0);
    expect(axis.x(2_000)).toBeCloseTo(0.5);
    expect(axis.x(3_000)).toBe(1);
    expect(axis.ticks.map((tick) => tick.label)).toEqual(["0.0 s", "0.5 s", "1.0 s", "1.5 s", "2.0 s"]);
  });

  it("compresses a long idle stretch into a marked gap, so earlier tries keep their width", () => {
    const axis = timeAxis([
      { start: 0, end: 1_000 },
      { start: 41_000, end: 42_000 },
    ]);
    expect(axis.gaps).toEqual([
      {
        from: 1_000,
        to: 41_000,
        left: expect.closeTo(0.46),
        right: expect.closeTo(0.54),
        label: "40 s idle",
      },
    ]);
    // Each try takes nearly half the width, not 1/42 of it.
    expect(axis.x(1_000) - axis.x(0)).toBeCloseTo(0.46);
    expect(axis.x(42_000) - axis.x(41_000)).toBeCloseTo(0.46);
    expect(axis.x(21_000)).toBeCloseTo(0.5);
  });

  it("labels ticks with the real elapsed time on both sides of a gap", () => {
    const axis = timeAxis([
      { start: 0, end: 3_000 },
      { start: 63_000, end: 66_000 },
    ]);
    // "63 s" would touch "3 s" across the narrow gap, so it is left out.
    expect(axis.ticks.map((tick) => tick.label)).toEqual([
      "0 s",
      "1 s",
      "2 s",
      "3 s",
      "64 s",
      "65 s",
      "66 s",
    ]);
    for (const tick of axis.ticks) expect(axis.x(tick.at)).toBeCloseTo(tick.x);
  });

  it("keeps overlapping tries (a double-click, a second tab) in one busy stretch", () => {
    const axis = timeAxis([
      { start: 0, end: 3_000 },
      { start: 100, end: 3_100 },
      { start: 2_900, end: 3_200 },
    ]);
    expect(axis.gaps).toEqual([]);
  });

  it("never places anything outside the axis, nor an end before its start", () => {
    const axis = timeAxis([{ start: 500, end: 400 }]);
    expect(axis.x(500)).toBe(0);
    expect(axis.x(10_000)).toBe(1);
  });
});
