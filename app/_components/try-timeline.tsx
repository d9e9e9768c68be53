"use client";

import { formatDuration } from "~/app/_lib/duration";
import { timeAxis } from "~/app/_lib/time-axis";
import type { TimeAxis } from "~/app/_lib/time-axis";
import { useNow } from "~/app/_lib/use-now";
import type { TabTry, ServerDecision } from "~/app/_trpc/try-log";
import { ShortId } from "./short-id";

const DECISIONS: Record<ServerDecision, string> = {
  executed: "executed: the server ran the charge",
  replayed: "replayed: the server answered with the stored result and charged nothing",
  coalesced: "coalesced: the server waited for the try in flight and shared its result",
  taken_over: "taken over: the first owner's lease had run out, so this try ran the charge",
  expired: "executed again: the key's stored result had expired",
};

/** Outcomes in which no answer reached the tab: a retry comes after giving up, not after an answer. */
const NO_ANSWER = new Set<TabTry["outcome"]>(["timed_out", "network_error", "cancelled", "interrupted"]);

const FINAL_ANSWERS: Record<number, string> = {
  400: "refused",
  402: "declined",
  404: "not found",
  412: "not payable",
  422: "the key was used for another request",
};

/** What a try's answer said, in words; the server's decision word when it gave one. */
function describe(tabTry: TabTry): string {
  switch (tabTry.outcome) {
    case "in_flight":
      return "waiting for the answer";
    case "succeeded":
      return tabTry.decision
        ? DECISIONS[tabTry.decision]
        : "charged with no idempotency check: nothing stops a second charge";
    case "final_error":
      return `HTTP ${tabTry.status}, ${FINAL_ANSWERS[tabTry.status ?? 0] ?? "refused"}: a final answer${
        tabTry.decision === "replayed" ? ", replayed from the store" : ""
      }`;
    case "conflict":
      return "HTTP 409: the key was busy with another try";
    case "unavailable":
      // A server that stores failures (the lab's pitfall) says so in its decision header.
      if (tabTry.decision === "replayed") return `HTTP ${tabTry.status}: a stored failure, replayed`;
      if (tabTry.decision === "executed")
        return `HTTP ${tabTry.status}: the server ran it and stored the failure as the key's outcome`;
      return `HTTP ${tabTry.status}: the server did not finish, and released the key: a retry runs it again`;
    case "timed_out":
      return "no answer in time: outcome unknown";
    case "network_error":
      return "no answer, the connection failed: outcome unknown";
    case "cancelled":
      return "cancelled by the page";
    case "interrupted":
      return "cut off by a reload: this tab never heard the answer";
  }
}

interface TryTimelineProps {
  tries: readonly TabTry[];
  waitingSince: number | null;
  /** The page's one clock: the order's first request, on this browser's clock (null: this tab's first try). */
  clockOrigin: number | null;
}

/** This tab's tries on a real time axis, long idle stretches compressed so that the tries do not shrink to slivers. */
export function TryTimeline({ tries, waitingSince, clockOrigin }: TryTimelineProps) {
  const live = waitingSince !== null || tries.some((tabTry) => tabTry.outcome === "in_flight");
  const now = useNow(live);
  if (tries.length === 0 && waitingSince === null) return null;

  const end = (tabTry: TabTry) =>
    Math.max(tabTry.startedAt, tabTry.endedAt ?? (tabTry.outcome === "in_flight" ? now : 0));
  const spans = [
    ...tries.map((tabTry) => ({ start: tabTry.startedAt, end: end(tabTry) })),
    ...(waitingSince === null ? [] : [{ start: waitingSince, end: Math.max(waitingSince, now) }]),
  ];
  const origin = clockOrigin ?? Math.min(...spans.map((span) => span.start));
  // A try is sent before the server records its arrival: the first may stand before the clock's zero.
  const at = (t: number) => `${t < origin ? "−" : "+"}${formatDuration(Math.abs(t - origin))}`;
  const axis = timeAxis(spans, { since: origin });
  const newKeyRetries = tries.filter((tabTry) => retriedWithNewKey(tries, tabTry));

  return (
    <section className="card timeline" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Tries from this tab</h2>
      <p className="muted small">
        Each bar is one request, from send to answer, with the key it carried and what the server said it did.
        Times count from the order&apos;s first request, as in the figures above.
      </p>
      {newKeyRetries.length > 0 && (
        <p className="alert danger small" data-testid="new-key-warning">
          Retried with a new key ({newKeyRetries.map((tabTry) => `try ${tabTry.number}`).join(", ")}): the
          server cannot tell such a retry from a new payment.
        </p>
      )}
      <ol className="lanes">
        {tries.map((tabTry) => {
          const retry = retryOf(tries, tabTry);
          return (
            <li
              key={tabTry.number}
              className="lane"
              data-outcome={tabTry.outcome}
              data-decision={tabTry.decision ?? undefined}
              data-key={tabTry.key}
            >
              <p className="lane-head">
                <strong>Try {tabTry.number}</strong> {at(tabTry.startedAt)}{" "}
                <ShortId value={tabTry.key} name="try's key" />
                {retry && (
                  <span className="muted">
                    {" "}
                    retry of try {retry.number}, {NO_ANSWER.has(retry.outcome) ? "given up on" : "answered"}{" "}
                    at {at(retry.endedAt!)}
                  </span>
                )}
                {retriedWithNewKey(tries, tabTry) && <span className="badge danger">new key</span>}
              </p>
              <Track axis={axis} start={tabTry.startedAt} end={end(tabTry)} bar={barClass(tabTry)} />
              <p className="lane-outcome">
                {describe(tabTry)}
                {tabTry.outcome === "succeeded" && tabTry.status !== null ? ` (HTTP ${tabTry.status})` : ""}
                {tabTry.endedAt !== null || tabTry.outcome === "in_flight" ? (
                  <span className="muted"> · {formatDuration(end(tabTry) - tabTry.startedAt)}</span>
                ) : null}
              </p>
            </li>
          );
        })}
        {waitingSince !== null && (
          <li className="lane" data-outcome="waiting">
            <p className="lane-head">
              <strong>Try {tries.length + 1}</strong>{" "}
              <span className="muted">waiting for the connection: not sent yet</span>
            </p>
            <Track axis={axis} start={waitingSince} end={Math.max(waitingSince, now)} bar="bar-waiting" />
          </li>
        )}
      </ol>
      <Axis axis={axis} />
    </section>
  );
}

function Track({ axis, start, end, bar }: { axis: TimeAxis; start: number; end: number; bar: string }) {
  const left = axis.x(start);
  return (
    <span className="lane-track" aria-hidden="true">
      {axis.gaps.map((gap) => (
        <span
          key={gap.from}
          className="track-gap"
          style={{ left: percent(gap.left), width: percent(gap.right - gap.left) }}
        />
      ))}
      <span
        className={`lane-bar ${bar}`}
        style={{ left: percent(left), width: percent(axis.x(end) - left) }}
      />
    </span>
  );
}

/** Tick labels in real elapsed time, and each compressed gap with how long it lasted. */
function Axis({ axis }: { axis: TimeAxis }) {
  return (
    <div className="axis" data-testid="time-axis">
      <span className="visually-hidden">Time since the order&apos;s first request: </span>
      {axis.ticks.map((tick) => (
        <span key={tick.at} className="axis-tick" style={{ left: percent(tick.x) }}>
          {tick.label}
        </span>
      ))}
      {axis.gaps.map((gap) => (
        <span
          key={gap.from}
          className="axis-gap"
          data-testid="axis-gap"
          style={{ left: percent((gap.left + gap.right) / 2) }}
        >
          {gap.label}
        </span>
      ))}
    </div>
  );
}

/** The try this one retried: the previous one of the same call, once it ended. */
function retryOf(tries: readonly TabTry[], tabTry: TabTry) {
  const previous = tries.findLast((other) => other.run === tabTry.run && other.number < tabTry.number);
  return previous?.endedAt === null ? undefined : previous;
}

function retriedWithNewKey(tries: readonly TabTry[], tabTry: TabTry): boolean {
  const retry = retryOf(tries, tabTry);
  return retry !== undefined && retry.key !== tabTry.key;
}

function barClass(tabTry: TabTry): string {
  if (tabTry.outcome === "succeeded") return `bar-${tabTry.decision ?? "unchecked"}`;
  return `bar-${tabTry.outcome}`;
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(2)}%`;
}
