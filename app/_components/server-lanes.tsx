"use client";

import { useContext, useState } from "react";
import { accountSummary, takeoverOf, tookOver } from "~/app/_lib/account-summary";
import type { SummarizedCharge } from "~/app/_lib/account-summary";
import { formatDuration } from "~/app/_lib/duration";
import { curlOf, requestBodyOf, responseHeadersOf } from "~/app/_lib/server-account";
import { CurlSession } from "./curl-session";
import { LanesFigure, lanePositions } from "./lanes-figure";
import type { ServerAttempt } from "~/app/_lib/server-account";
import { ShortId } from "./short-id";

/** What the server did, in words, by the decision it recorded. */
const DECISION_WORDS: Record<NonNullable<ServerAttempt["decision"]>, string> = {
  executed: "executed: ran the charge",
  replayed: "replayed the stored result, charged nothing",
  coalesced: "waited for the attempt in flight and shared its result",
  taken_over: "took over a dead owner's key, and ran",
  expired: "found the key expired, and ran again",
  conflict: "still in progress past the wait bound: 409, retry later",
  mismatch: "the key holds another body: 422",
  refused: "refused before any write; the key was released",
  released: "failed before its key was completed; the key was released",
  lease_lost: "ran past its lease; nothing of it was committed",
  abandoned: "the client went away; the execution went on",
};

/**
 * The guide's lanes figure, drawn from the server's own account: client,
 * network and server lanes (one per instance that answered), each request an
 * arrow to the server and its reply an arrow back, or lost on the way. Each
 * request opens to show what was sent and answered, and copies as curl.
 */
export function ServerLanes({
  attempts,
  charges,
}: {
  attempts: readonly ServerAttempt[];
  charges: readonly SummarizedCharge[];
}) {
  const instances = [...new Set(attempts.map((attempt) => attempt.instance))];
  const { sender, between, receivers } = lanePositions(instances.length);
  const lanes = { client: sender, network: between, servers: receivers };
  const first = attempts[0] ? Date.parse(attempts[0].at) : 0;
  const heads = [
    { name: "Client", x: lanes.client },
    { name: "Network", x: lanes.network },
    ...instances.map((instance, i) => ({ name: `Server ${instance}`, x: lanes.servers[i] ?? 86 })),
  ];
  return (
    <section className="card server-account" aria-labelledby="lanes-heading" data-testid="server-lanes">
      <h2 id="lanes-heading">What the server saw</h2>
      <p className="muted small">
        Every request with this order&apos;s keys that reached the server, from the server&apos;s own record
        (written in batches, so it lags by a moment). Open one to see what was sent and answered.
      </p>
      <p className="account-summary" data-testid="account-summary">
        {accountSummary(attempts, charges)}
      </p>
      {attempts.length > 0 && (
        <LanesFigure heads={heads}>
          {attempts.map((attempt, i) => (
            <LanesRow
              key={attempt.id}
              attempt={attempt}
              number={i + 1}
              sinceFirstMs={Date.parse(attempt.at) - first}
              serverX={lanes.servers[instances.indexOf(attempt.instance)] ?? 86}
              lanes={lanes}
              laneXs={heads.map((head) => head.x)}
              previous={attempts[i - 1]}
              takeover={takeoverOf(attempts, i)}
            />
          ))}
        </LanesFigure>
      )}
    </section>
  );
}

function LanesRow({
  attempt,
  number,
  sinceFirstMs,
  serverX,
  lanes,
  laneXs,
  previous,
  takeover,
}: {
  attempt: ServerAttempt;
  number: number;
  sinceFirstMs: number;
  serverX: number;
  lanes: { client: number; network: number };
  /** Where every lane's line runs, drawn in each row so that an opened row's details sit clear of them. */
  laneXs: readonly number[];
  previous: ServerAttempt | undefined;
  /** The request that took over this one's key, when its server died before answering. */
  takeover: number | null;
}) {
  const waited = attempt.decision === "coalesced" || attempt.decision === "conflict";
  const replyEnd = attempt.replyLost ? lanes.network : lanes.client;
  // The completer runs inside a server: no request crosses the network, and no reply goes back.
  const fromClient = attempt.sentBy !== "completer";
  const answered = attempt.decision !== null && fromClient;
  const words = [
    attempt.decision === null ? "in flight: no answer yet" : DECISION_WORDS[attempt.decision],
    attempt.decision !== "taken_over" && tookOver(attempt) ? " (it had taken over a dead owner's key)" : "",
    takeover === null ? "" : `; its server stopped, and #${takeover} took its key over`,
  ].join("");
  return (
    <li
      className="lanes-row"
      data-server-attempt={number}
      data-decision={attempt.decision ?? "in_flight"}
      data-taken-over-by={takeover ?? undefined}
      data-sent-by={attempt.sentBy}
      data-status={attempt.status ?? "none"}
      data-key-state={attempt.keyState ?? "unknown"}
      data-payload={attempt.payload}
      data-reply-lost={attempt.replyLost}
    >
      {previous && previous.replyLost && (
        <p className="lanes-gap small">
          No reply reached the client; it sent again{" "}
          {formatDuration(Date.parse(attempt.at) - Date.parse(previous.at) - previous.durationMs)} later, with{" "}
          {previous.key === attempt.key ? "the same key" : "a new key"}.
        </p>
      )}
      <details>
        <summary>
          <span className="lanes-arrows" aria-hidden="true">
            {laneXs.map((x) => (
              <span key={x} className="lanes-line" style={{ left: `${x}%` }} />
            ))}
            {fromClient && (
              <span
                className="lanes-arrow request"
                style={{ left: `${lanes.client}%`, width: `${serverX - lanes.client}%` }}
              />
            )}
            <span
              className={`lanes-work decision-${attempt.decision ?? "in-flight"}`}
              style={{ left: `${serverX}%` }}
            >
              {fromClient ? (waited ? "wait" : attempt.decision === "executed" ? "charge" : "") : "completer"}
            </span>
            {answered && (
              <span
                className={`lanes-arrow reply${attempt.replyLost ? " lost" : ""}${(attempt.status ?? 0) >= 400 ? " failed" : ""}`}
                style={{ left: `${replyEnd}%`, width: `${serverX - replyEnd}%` }}
              />
            )}
          </span>
          <span className="lanes-caption">
            <strong>#{number}</strong> +{formatDuration(sinceFirstMs)}
            {fromClient ? "" : " · the background completer"}
            {attempt.status !== null && fromClient ? ` · HTTP ${attempt.status}` : ""} ·{" "}
            <span data-testid="server-decision">{words}</span>
            {waited && ` (${formatDuration(attempt.durationMs)})`}
            {attempt.replyLost && <span className="badge danger">reply lost</span>}
            {attempt.sentBy === "naive client" && (
              <span className="badge danger">naive: a new key, no run-once</span>
            )}
          </span>
        </summary>
        <AttemptDetails attempt={attempt} />
      </details>
    </li>
  );
}

function AttemptDetails({ attempt }: { attempt: ServerAttempt }) {
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const sessionCookie = useContext(CurlSession);
  const copy = () =>
    navigator.clipboard.writeText(curlOf(attempt, window.location.origin, sessionCookie)).then(
      () => setCopied("copied"),
      () => setCopied("failed"),
    );
  const fromClient = attempt.sentBy !== "completer";
  const naive = attempt.sentBy === "naive client";
  return (
    <div className="attempt-details">
      {fromClient ? (
        <>
          <div>
            <h3>Request</h3>
            <pre>
              {naive
                ? `POST /api/trpc/lab.naiveCharge\n\n${JSON.stringify({ ...attempt.body, attemptKey: attempt.key }, null, 2)}`
                : `POST /api/trpc/payments.charge\nIdempotency-Key: ${attempt.key}\n\n${JSON.stringify(requestBodyOf(attempt), null, 2)}`}
            </pre>
          </div>
          <div>
            <h3>Response</h3>
            <pre data-testid="response-headers">
              {attempt.status === null
                ? "None: no answer was sent."
                : [
                    `HTTP ${attempt.status}`,
                    ...responseHeadersOf(attempt).map(([name, value]) => `${name}: ${value}`),
                  ].join("\n")}
            </pre>
          </div>
        </>
      ) : (
        <p>
          The background completer found this payment stranded past its recovery point and ran it again,
          inside the server, under the payment&apos;s own key: no request crossed the network.
        </p>
      )}
      <dl className="attempt-facts small">
        <dt>{attempt.decision === null ? "Received by" : "Answered by"}</dt>
        <dd>{attempt.instance}</dd>
        <dt>Key generation</dt>
        <dd>{attempt.generation ?? "none: no execution answered"}</dd>
        <dt>Key</dt>
        <dd>
          <ShortId value={attempt.key} name="idempotency key" />
        </dd>
        <dt>Took</dt>
        <dd>{attempt.decision === null ? "no answer" : formatDuration(attempt.durationMs)}</dd>
        {attempt.decision === "executed" && (
          <>
            <dt>Reply</dt>
            <dd>{attempt.replyLost ? "lost on its way back (the fault lab dropped it)" : "sent"}</dd>
          </>
        )}
      </dl>
      {attempt.sentBy === "client" && (
        <p>
          <button type="button" className="secondary" onClick={() => void copy()}>
            Copy as curl
          </button>{" "}
          {copied && (
            <span role="status" className="small">
              {copied === "copied" ? "Copied." : "The browser refused the clipboard."}
            </span>
          )}
        </p>
      )}
    </div>
  );
}
