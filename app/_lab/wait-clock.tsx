"use client";

import { DEFAULT_RETRY_SETTINGS } from "retry-policy";
import { formatDuration } from "~/app/_lib/duration";
import { useNow } from "~/app/_lib/use-now";
import type { TabTry } from "~/app/_trpc/try-log";

/** How long the server lets a duplicate wait before its 409 (DEFAULT_RUN_ONCE_SETTINGS.waitMs; the demo keeps it). */
const WAIT_BOUND_MS = 5_000;

const seconds = (ms: number) => `${(Math.max(0, ms) / 1000).toFixed(1)} s`;

/** How long this tab's request has waited for its answer, against the bound the rule puts on a duplicate's wait. */
export function WaitClock({ tries }: { tries: readonly TabTry[] }) {
  const waiting = tries.filter((tabTry) => tabTry.outcome === "in_flight").at(-1);
  const now = useNow(waiting !== undefined, 100);
  const last = waiting ?? tries.at(-1);
  if (!last) return null;

  if (waiting) {
    const waited = now - waiting.startedAt;
    return (
      <p className="wait-clock" role="timer" aria-live="off" data-testid="wait-clock" data-state="waiting">
        This tab has waited <strong>{seconds(waited)}</strong> for an answer
        {waited > WAIT_BOUND_MS
          ? `, past the ${WAIT_BOUND_MS / 1000} s bound at which the rule answers a duplicate 409 with Retry-After.`
          : `; the rule's bound for a duplicate is ${WAIT_BOUND_MS / 1000} s.`}{" "}
        In pitfall mode its own {DEFAULT_RETRY_SETTINGS.tryTimeoutMs / 1000} s timeout is off: only the server
        ends the wait.
      </p>
    );
  }
  const waited = (last.endedAt ?? last.startedAt) - last.startedAt;
  return (
    <p className="wait-clock" data-testid="wait-clock" data-state="answered" data-waited-ms={waited}>
      This tab&apos;s last request was answered after <strong>{formatDuration(waited)}</strong>
      {last.status === 409
        ? ": 409, the bound ended its wait."
        : last.decision === "coalesced"
          ? ": it waited for the execution in flight and shared its result, with no 409."
          : last.decision === "executed"
            ? ": it was the execution itself."
            : "."}
    </p>
  );
}
