"use client";

import { useContext, useState } from "react";
import type { PaymentStory, RequestRow } from "~/app/_lib/story/payment-story";
import { formatDuration } from "~/app/_lib/duration";
import { curlOf, requestBodyOf, responseHeadersOf } from "~/app/_lib/server-account";
import { CurlSession } from "./curl-session";
import { LanesExchange, LanesFigure, laneLayout } from "./lanes-figure";
import type { LaneLayout } from "./lanes-figure";
import type { RequestView } from "~/app/_lib/server-account";
import { ShortId } from "./short-id";

/** The guide's lanes figure from the payment's story; each request opens to show what was sent and answered. */
export function ServerLanes({ story, readBeforeAnswer }: { story: PaymentStory; readBeforeAnswer: boolean }) {
  const rows = story.requests;
  const instances = [...new Set(rows.map((row) => row.record.instance))];
  // A server lane's name: its instance alone, or a letter when several share the figure's width.
  const servers = instances.map((instance, i) =>
    instances.length === 1 ? `Server ${instance}` : `Server ${String.fromCharCode(65 + i)}`,
  );
  const layout = laneLayout("Client", "Network", servers);
  const first = rows[0] ? Date.parse(rows[0].record.at) : 0;
  return (
    <section className="card server-account" aria-labelledby="lanes-heading" data-testid="server-lanes">
      <h2 id="lanes-heading">What the server saw</h2>
      <p className="muted small">
        Every request with this order&apos;s keys that reached the server, from the server&apos;s own record
        (written in batches, so it lags by a moment). Open one to see what was sent and answered.
      </p>
      {readBeforeAnswer && (
        <p className="small" data-testid="account-read-before">
          Read before this tab&apos;s latest answer: read again as soon as the server answers.
        </p>
      )}
      <p className="account-summary" data-testid="account-summary">
        {story.whatHappened}
      </p>
      {instances.length > 1 && (
        <p className="small" data-testid="server-legend">
          {instances.map((instance, i) => `${servers[i]} is ${instance}`).join("; ")}.
        </p>
      )}
      {rows.length > 0 && (
        <LanesFigure heads={layout.heads}>
          {rows.map((row, i) => (
            <LanesRow
              key={row.record.id}
              row={row}
              sinceFirstMs={Date.parse(row.record.at) - first}
              serverX={layout.receivers[instances.indexOf(row.record.instance)] ?? 86}
              layout={layout}
              previous={rows[i - 1]}
            />
          ))}
        </LanesFigure>
      )}
    </section>
  );
}

const BY_SERVER = {
  completer: "the background completer",
  webhook: "the provider's webhook",
  "catch-up": "the catch-up",
} as const;

interface LanesRowProps {
  row: RequestRow;
  sinceFirstMs: number;
  serverX: number;
  layout: LaneLayout;
  previous: RequestRow | undefined;
}

function LanesRow({ row, sinceFirstMs, serverX, layout, previous }: LanesRowProps) {
  const { record: request } = row;
  return (
    <li
      className="lanes-row"
      data-server-try={row.n}
      data-request-id={request.id}
      data-decision={request.decision ?? "in_flight"}
      data-taken-over-by={row.takenOverBy ?? undefined}
      data-sent-by={request.sentBy}
      data-status={request.status ?? "none"}
      data-key-state={request.keyState ?? "unknown"}
      data-payload={request.payload}
      data-reply={row.reply}
      data-reply-lost={row.reply === "lost"}
      data-charges={row.charges.join(" ")}
    >
      {previous?.reply === "lost" && row.crossesNetwork && (
        <p className="lanes-gap small">
          No reply reached the client; it sent again at +{formatDuration(sinceFirstMs)}, with{" "}
          {previous.record.key === request.key ? "the same key" : "a new key"}.
        </p>
      )}
      <details>
        <summary>
          <LanesExchange
            layout={layout}
            to={serverX}
            request={row.crossesNetwork}
            work={{
              decision: request.decision,
              status: request.status,
              mark:
                row.work === "charge" || row.work === "decline" || row.work === "record" ? row.work : null,
              waited: row.work === "wait",
            }}
            reply={row.reply === "none" ? null : { arrow: row.reply, status: request.status }}
          />
          <span className="lanes-caption">
            <strong>#{row.n}</strong> +{formatDuration(sinceFirstMs)}
            {row.crossesNetwork ? "" : ` · ${BY_SERVER[request.sentBy as keyof typeof BY_SERVER]}`}
            {request.status !== null && row.crossesNetwork ? ` · HTTP ${request.status}` : ""} ·{" "}
            <span data-testid="server-decision">{row.caption}</span>
            {row.work === "wait" && ` (${formatDuration(request.durationMs)})`}
            {row.reply === "lost" && <span className="badge danger">reply lost</span>}
            {request.sentBy === "naive client" && (
              <span className="badge danger">naive: a new key, no run-once</span>
            )}
          </span>
        </summary>
        <RequestDetails request={request} />
      </details>
    </li>
  );
}

function RequestDetails({ request }: { request: RequestView }) {
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const sessionCookie = useContext(CurlSession);
  const copy = () =>
    navigator.clipboard.writeText(curlOf(request, window.location.origin, sessionCookie)).then(
      () => setCopied("copied"),
      () => setCopied("failed"),
    );
  const fromClient = !(request.sentBy in BY_SERVER);
  const naive = request.sentBy === "naive client";
  return (
    <div className="try-details">
      {fromClient ? (
        <>
          <div>
            <h3>Request</h3>
            <pre>
              {naive
                ? `POST /api/trpc/lab.naiveCharge\n\n${JSON.stringify({ ...request.body, attemptKey: request.key }, null, 2)}`
                : `POST /api/trpc/payments.charge\nIdempotency-Key: ${request.key}\n\n${JSON.stringify(requestBodyOf(request), null, 2)}`}
            </pre>
          </div>
          <div>
            <h3>Response</h3>
            <pre data-testid="response-headers">
              {request.status === null
                ? "None: no answer was sent."
                : [
                    `HTTP ${request.status}`,
                    ...responseHeadersOf(request).map(([name, value]) => `${name}: ${value}`),
                  ].join("\n")}
            </pre>
          </div>
        </>
      ) : request.sentBy === "webhook" || request.sentBy === "catch-up" ? (
        <p>
          {request.sentBy === "webhook"
            ? "The payment provider's webhook told"
            : "The catch-up, listing the provider's events, told"}{" "}
          the shop of this payment (<code>{String(request.body.type)}</code>, event{" "}
          <code>{String(request.body.event)}</code>), and the shop recorded it under the payment&apos;s own
          key, as a retry or the completer would have.
        </p>
      ) : (
        <p>
          The background completer found this payment stranded past its recovery point and ran it again,
          inside the server, under the payment&apos;s own key: no request crossed the network.
        </p>
      )}
      <dl className="try-facts small">
        <dt>{request.decision === null ? "Received by" : "Answered by"}</dt>
        <dd>{request.instance}</dd>
        <dt>Key generation</dt>
        <dd>{request.generation ?? "none: no execution answered"}</dd>
        <dt>Key</dt>
        <dd>
          <ShortId value={request.key} name="idempotency key" />
        </dd>
        <dt>Took</dt>
        <dd>{request.decision === null ? "no answer" : formatDuration(request.durationMs)}</dd>
        {request.decision === "executed" && (
          <>
            <dt>Reply</dt>
            <dd>{request.replyLost ? "lost on its way back (the fault lab dropped it)" : "sent"}</dd>
          </>
        )}
      </dl>
      {request.sentBy === "client" && (
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
