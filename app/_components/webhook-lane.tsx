import { formatDuration } from "~/app/_lib/duration";
import { laneName } from "~/app/_lib/story/payment-story";
import type { PaymentStory } from "~/app/_lib/story/payment-story";
import { LanesExchange, LanesFigure, laneLayout } from "./lanes-figure";
import { shortId } from "~/app/_lib/short-id";

/** The webhook's lane: each delivery of the provider's events, handled once per event id, with the shop's answer. */
export function WebhookLane({ story }: { story: PaymentStory }) {
  const rows = story.webhookDeliveries;
  if (rows.length === 0) return null;
  const layout = laneLayout("Provider", "Network", ["Shop"]);
  // From the order's first request, so that a delivery before its reply shows as one.
  const first = Date.parse(story.requests[0]?.record.at ?? rows[0]!.at);
  return (
    <section className="card server-account" aria-labelledby="webhook-heading" data-testid="webhook-lane">
      <h2 id="webhook-heading">What the provider&apos;s webhook told the shop</h2>
      <p className="muted small">
        Each delivery of the provider&apos;s events that reached the shop, from the shop&apos;s own record. An
        event may come more than once, or before the provider&apos;s reply: it is handled once per event id,
        and records the payment under the payment&apos;s own key. Times count from the first request.
      </p>
      <p className="account-summary" data-testid="webhook-summary">
        {story.webhookSentence}
      </p>
      <LanesFigure heads={layout.heads}>
        {rows.map((row) => (
          <li
            key={row.n}
            className="lanes-row"
            data-webhook-delivery={row.n}
            data-delivery-id={row.delivery?.id}
            data-try={row.try?.id}
            data-event={row.event}
            data-decision={row.decision ?? "in_flight"}
            data-status={row.status ?? "none"}
            data-recorded-as={row.recordedAs ?? undefined}
          >
            <LanesExchange
              layout={layout}
              work={{
                decision: row.decision,
                status: row.status,
                waited: row.work === "wait",
                noAnswer: Boolean(row.try?.error),
              }}
              reply={row.status === null ? null : { arrow: "received", status: row.status }}
            />
            <span className="lanes-caption">
              <strong>{laneName(row)}</strong> +{formatDuration(Date.parse(row.at) - first)} ·{" "}
              <code title={row.event}>{shortId(row.event)}</code>
              {row.status === null ? "" : ` · HTTP ${row.status}`} ·{" "}
              <span data-testid="webhook-decision">{row.caption}</span>
              {row.status !== null && row.durationMs !== null && ` (${formatDuration(row.durationMs)})`}
            </span>
          </li>
        ))}
      </LanesFigure>
    </section>
  );
}
