"use client";

import { formatDuration } from "~/app/_lib/duration";
import type { KeyStage, ServerAccount } from "~/app/_lib/server-account";
import { useHydrated } from "~/app/_lib/use-hydrated";
import { useNow } from "~/app/_lib/use-now";
import { LocalTime } from "./local-time";
import { ShortId } from "./short-id";

const STAGES: Array<{ stage: KeyStage; name: string; then: string }> = [
  { stage: "absent", name: "Absent", then: "the first request claims it" },
  { stage: "in_progress", name: "In progress", then: "duplicates wait; commit completes it" },
  { stage: "completed", name: "Completed", then: "the result is replayed" },
  { stage: "expired", name: "Expired", then: "past its retention: a request runs again" },
];

/** A long span as a person reads it: "23 h 59 min", or formatDuration's words below an hour. */
function span(ms: number): string {
  if (ms < 3_600_000) return formatDuration(ms);
  const minutes = Math.floor(ms / 60_000);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

interface KeyLifecycleProps {
  lifecycle: ServerAccount["keys"][number];
  clockOffsetMs: number;
  /** The story's words when the shared store has no row for a key that was run or answered (a store in memory). */
  notInStore: string | null;
  /** The record was read before this tab's latest answer: no stage is lit until it is read again. */
  readBeforeAnswer: boolean;
}

/** The guide's lifecycle figure with the key's stage lit live; `clockOffsetMs`: the server's clock minus this browser's. */
export function KeyLifecycle({ lifecycle, clockOffsetMs, notInStore, readBeforeAnswer }: KeyLifecycleProps) {
  const hydrated = useHydrated();
  const now =
    useNow(lifecycle.state === "in_progress" || lifecycle.state === "completed", 1_000) + clockOffsetMs;
  // Countdowns need the browser's clock: the server's HTML says when, the browser also how long from now.
  const fromNow = (iso: string | null) =>
    hydrated && iso ? ` (in ${span(Math.max(0, Date.parse(iso) - now))})` : "";
  const lit = readBeforeAnswer ? null : lifecycle.state;
  const detail = (() => {
    if (lit === null)
      return <>Read before this tab&apos;s latest answer: read again as soon as the server answers.</>;
    switch (lit) {
      case "absent":
        return <>{notInStore ?? "Not on the server: the next request claims it and runs."}</>;
      case "in_progress":
        return hydrated && Date.parse(lifecycle.lockedUntil ?? "") <= now ? (
          <>Lease over: its owner is presumed dead, and the next request takes the key over.</>
        ) : (
          <>
            Lease ends at <LocalTime iso={lifecycle.lockedUntil ?? ""} />
            {fromNow(lifecycle.lockedUntil)}: until then a duplicate waits; after it, a retry takes the key
            over.
          </>
        );
      case "completed":
        return (
          <>
            Kept until <LocalTime iso={lifecycle.expiresAt ?? ""} />
            {fromNow(lifecycle.expiresAt)}: every request with it is answered with the stored result.
          </>
        );
      case "expired":
        return <>Past its retention: treated as absent until swept, so the next request runs again.</>;
    }
  })();
  return (
    <section className="card key-lifecycle" aria-labelledby="lifecycle-heading" data-testid="key-lifecycle">
      <h2 id="lifecycle-heading">
        The key on the server <ShortId value={lifecycle.key} name="idempotency key" copyable={false} />
      </h2>
      <ol className="lifecycle-stages">
        {STAGES.map(({ stage, name, then }) => (
          <li
            key={stage}
            data-stage={stage}
            aria-current={stage === lit ? "step" : undefined}
            className={stage === lit ? "current" : undefined}
          >
            <strong>{name}</strong>
            <span className="small">{then}</span>
          </li>
        ))}
      </ol>
      <p className="small" data-testid="key-stage-detail">
        {detail}
      </p>
    </section>
  );
}
