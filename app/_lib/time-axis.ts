import { formatDuration } from "./duration";

/** Something drawn on the axis, from `start` to `end` (epoch milliseconds). */
interface Span {
  start: number;
  end: number;
}

interface Stretch {
  from: number;
  to: number;
}

interface AxisOptions {
  /** Idle stretches longer than this are compressed. */
  longestIdleMs: number;
  /** The width a compressed stretch takes, at most. */
  gapWidth: number;
  /** The instant tick labels count from (the page's clock); the first start unless given. */
  since?: number;
}

const DEFAULTS: AxisOptions = { longestIdleMs: 2_000, gapWidth: 0.08 };
const TICK_STEPS_MS = [100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000] as const;
const MAX_TICKS = 6;

export type TimeAxis = ReturnType<typeof timeAxis>;

/** A stretch of time, `from`..`to`, drawn at `left`..`right` on the axis: linearly, or compressed. */
interface Piece extends Stretch {
  left: number;
  right: number;
  compressed: boolean;
}

/** A time axis, linear except that idle stretches over `longestIdleMs` are squeezed into marked gaps. */
export function timeAxis(spans: readonly Span[], options: Partial<AxisOptions> = {}) {
  const { longestIdleMs, gapWidth, since } = { ...DEFAULTS, ...options };
  const origin = Math.min(...spans.map((span) => span.start));
  const finish = Math.max(origin + 1, ...spans.map((span) => span.end));
  const idle = idleStretches(spans).filter((stretch) => stretch.to - stretch.from > longestIdleMs);

  // Compressed stretches share at most 40% of the width; real time gets the rest.
  const width = idle.length > 0 ? Math.min(gapWidth, 0.4 / idle.length) : 0;
  const realTime = finish - origin - idle.reduce((sum, stretch) => sum + (stretch.to - stretch.from), 0);
  const perMs = (1 - width * idle.length) / realTime;

  const pieces: Piece[] = [];
  let cursor = origin;
  let x = 0;
  for (const stretch of [...idle, { from: finish, to: finish }]) {
    const right = x + (stretch.from - cursor) * perMs;
    pieces.push({ from: cursor, to: stretch.from, left: x, right, compressed: false });
    if (stretch.to > stretch.from)
      pieces.push({ ...stretch, left: right, right: right + width, compressed: true });
    cursor = stretch.to;
    x = right + (stretch.to > stretch.from ? width : 0);
  }

  /** Where instant `t` falls, from 0 (the first start) to 1 (the last end). */
  const position = (t: number): number => {
    const piece = pieces.find((candidate) => t <= candidate.to) ?? pieces.at(-1);
    if (!piece || t <= piece.from) return piece?.left ?? 0;
    const share = (Math.min(t, piece.to) - piece.from) / Math.max(1, piece.to - piece.from);
    return piece.left + share * (piece.right - piece.left);
  };

  const linear = pieces.filter((piece) => !piece.compressed);
  return {
    x: position,
    /** The idle stretches, drawn narrower than their length. */
    gaps: pieces
      .filter((piece) => piece.compressed)
      .map(({ compressed: _, ...gap }) => ({ ...gap, label: `${formatDuration(gap.to - gap.from)} idle` })),
    ticks: ticksOn(linear, since ?? origin, realTime),
  };
}

/** The stretches between the spans' merged busy intervals. */
function idleStretches(spans: readonly Span[]): Stretch[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const stretches: Stretch[] = [];
  let busyUntil = sorted[0]?.end ?? 0;
  for (const span of sorted.slice(1)) {
    if (span.start > busyUntil) stretches.push({ from: busyUntil, to: span.start });
    busyUntil = Math.max(busyUntil, span.end);
  }
  return stretches;
}

/** Round instants since the origin, within the uncompressed pieces, labelled as elapsed time. */
function ticksOn(pieces: Piece[], origin: number, realTime: number) {
  const step = TICK_STEPS_MS.find((candidate) => realTime / candidate <= MAX_TICKS) ?? 60_000;
  const ticks: Array<{ at: number; x: number; label: string }> = [];
  for (const piece of pieces) {
    const perMs = (piece.right - piece.left) / Math.max(1, piece.to - piece.from);
    for (let at = origin + Math.ceil((piece.from - origin) / step) * step; at <= piece.to; at += step) {
      const x = piece.left + (at - piece.from) * perMs;
      // Labels closer than this would overlap.
      const previous = ticks.at(-1);
      if (previous && x - previous.x < 0.09) continue;
      ticks.push({ at, x, label: tickLabel(at - origin, step) });
    }
  }
  return ticks;
}

function tickLabel(elapsedMs: number, stepMs: number): string {
  return stepMs < 1_000 ? `${(elapsedMs / 1000).toFixed(1)} s` : `${Math.round(elapsedMs / 1000)} s`;
}
