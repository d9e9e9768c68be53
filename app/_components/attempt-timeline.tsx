"use client";

import { useEffect, useState } from "react";
import type { Attempt, AttemptOutcome } from "~/app/_trpc/attempt-log";

const LABELS: Record<AttemptOutcome, string> = {
  in_flight: "waiting for the answer",
  executed: "executed: the server charged",
  replayed: "replayed: the stored result of an earlier attempt",
  timed_out: "timed out: outcome unknown, retried with the same key",
  network_error: "no answer: outcome unknown, retried with the same key",
  conflict: "409: still in progress elsewhere, retried",
  unavailable: "503: nothing committed, retried",
  final_error: "final answer: not retried",
  cancelled: "cancelled",
  interrupted: "interrupted by a reload: outcome unknown",
};

function seconds(ms: number) {
  return `${(ms / 1000).toFixed(2)} s`;
}

/**
 * The payment's attempts as lanes over time, after the guide's figure: each
 * attempt is a bar from send to answer, coloured by what the answer said, and
 * a dashed gap shows the backoff before the next one.
 */
export function AttemptTimeline({ attempts }: { attempts: readonly Attempt[] }) {
  const live = attempts.some((attempt) => attempt.outcome === "in_flight");
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [live]);

  if (attempts.length === 0) return null;
  const first = attempts[0];
  if (!first) return null;
  const origin = first.startedAt;
  const end = Math.max(...attempts.map((attempt) => attempt.endedAt ?? now), origin + 1);
  const span = end - origin;
  const percent = (t: number) => `${(((t - origin) / span) * 100).toFixed(2)}%`;

  return (
    <section className="card timeline" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Attempts</h2>
      <p className="muted">
        Every attempt sends the order&apos;s payment key. Whatever the network does, the server charges at
        most once.
      </p>
      <ol className="lanes">
        {attempts.map((attempt) => {
          const stop = attempt.endedAt ?? now;
          return (
            <li key={attempt.number} className="lane" data-outcome={attempt.outcome}>
              <span className="lane-label">Attempt {attempt.number}</span>
              <span className="lane-track" aria-hidden="true">
                <span
                  className={`lane-bar outcome-${attempt.outcome}`}
                  style={{
                    left: percent(attempt.startedAt),
                    width: `calc(${percent(stop)} - ${percent(attempt.startedAt)} + 2px)`,
                  }}
                />
              </span>
              <span className="lane-outcome">
                {LABELS[attempt.outcome]}
                {attempt.status !== null &&
                attempt.outcome !== "conflict" &&
                attempt.outcome !== "unavailable"
                  ? ` (HTTP ${attempt.status})`
                  : ""}{" "}
                <span className="muted">
                  · {seconds(stop - attempt.startedAt)}
                  {attempt.retryDelayMs !== null ? `, then waited ${seconds(attempt.retryDelayMs)}` : ""}
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
