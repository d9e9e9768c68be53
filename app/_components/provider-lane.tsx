import { formatDuration } from "~/app/_lib/duration";
import type { PaymentStory } from "~/app/_lib/story/payment-story";
import { LanesExchange, LanesFigure, laneLayout } from "./lanes-figure";
import { shortId } from "~/app/_lib/short-id";

/** The second hop's lane: each call the shop made to the provider, its decision, and the reply that came back. */
export function ProviderLane({ story }: { story: PaymentStory }) {
  const rows = story.providerCalls;
  if (rows.length === 0) return null;
  const layout = laneLayout("Shop", "Network", ["Provider"]);
  // One clock for the page: from the order's first request, as the request lane's.
  const first = Date.parse(story.requests[0]?.record.at ?? rows[0]!.call.at);
  return (
    <section className="card server-account" aria-labelledby="provider-heading" data-testid="provider-lane">
      <h2 id="provider-heading">What the shop asked the provider</h2>
      <p className="muted small">
        The second hop: each call the shop sent the payment provider, from the shop&apos;s own record. Every
        retry sends the key derived from the payment&apos;s, so the provider answers it once. Times count from
        the first request.
      </p>
      <p className="account-summary" data-testid="provider-summary">
        {story.providerSentence}
      </p>
      <LanesFigure heads={layout.heads}>
        {rows.map(({ n, call, reply, mark, caption }) => (
          <li
            key={call.id}
            className="lanes-row"
            data-provider-call={n}
            data-path={call.path}
            data-purpose={call.purpose}
            data-decision={call.decision ?? (reply === "none" ? "in_flight" : "none")}
            data-status={call.status ?? "none"}
            data-no-reply={reply === "lost"}
            data-reply={reply}
          >
            <LanesExchange
              layout={layout}
              work={{ mark, decision: call.decision, status: call.status }}
              reply={reply === "none" ? null : { arrow: reply, status: call.status }}
            />
            <span className="lanes-caption">
              <strong>Call {n}</strong> +{formatDuration(Date.parse(call.at) - first)} · {call.purpose} ·{" "}
              <code title={call.key} data-testid="provider-key">
                {shortId(call.paymentKey ?? call.key)}
              </code>{" "}
              · try {call.try}
              {call.status === null ? "" : ` · HTTP ${call.status}`} ·{" "}
              <span data-testid="provider-decision">{caption}</span>
              {reply !== "none" && ` (${formatDuration(call.durationMs)})`}
              {reply === "lost" && <span className="badge danger">no reply</span>}
            </span>
          </li>
        ))}
      </LanesFigure>
    </section>
  );
}
