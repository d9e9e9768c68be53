import { formatDuration } from "~/app/_lib/duration";
import { providerCallWords, providerSummary } from "~/app/_lib/provider-summary";
import type { ProviderCall } from "~/app/_lib/server-account";
import { LanesFigure, lanePositions } from "./lanes-figure";
import { shortId } from "~/app/_lib/short-id";

/**
 * The second hop's lane, from the server's own account: every call the shop
 * made to the payment provider for this order, each under a key derived from
 * the payment's (`<key>/card`, `<key>/charge`), with the provider's decision
 * and the reply that came back, or none.
 */
export function ProviderLane({ calls }: { calls: readonly ProviderCall[] }) {
  if (calls.length === 0) return null;
  const { sender, between, receivers } = lanePositions(1);
  const provider = receivers[0]!;
  const heads = [
    { name: "Shop", x: sender },
    { name: "Network", x: between },
    { name: "Provider", x: provider },
  ];
  const first = Date.parse(calls[0]!.at);
  return (
    <section className="card server-account" aria-labelledby="provider-heading" data-testid="provider-lane">
      <h2 id="provider-heading">What the shop asked the provider</h2>
      <p className="muted small">
        The second hop: each call the shop sent the payment provider, from the shop&apos;s own record. Every
        retry sends the key derived from the payment&apos;s, so the provider answers it once.
      </p>
      <p className="account-summary" data-testid="provider-summary">
        {providerSummary(calls)}
      </p>
      <LanesFigure heads={heads}>
        {calls.map((call, i) => {
          const lost = call.noReply;
          const answered = call.status !== null || lost;
          const replyEnd = lost ? between : sender;
          const ran = call.decision === "executed" && call.status === 200;
          return (
            <li
              key={call.id}
              className="lanes-row"
              data-provider-call={i + 1}
              data-path={call.path}
              data-decision={call.decision ?? (answered ? "none" : "in_flight")}
              data-status={call.status ?? "none"}
              data-no-reply={lost}
            >
              <span className="lanes-arrows" aria-hidden="true">
                {heads.map((head) => (
                  <span key={head.x} className="lanes-line" style={{ left: `${head.x}%` }} />
                ))}
                <span
                  className="lanes-arrow request"
                  style={{ left: `${sender}%`, width: `${provider - sender}%` }}
                />
                <span
                  className={`lanes-work decision-${call.decision ?? "in-flight"}`}
                  style={{ left: `${provider}%` }}
                >
                  {ran ? (call.path.endsWith("charges") ? "charge" : "card") : ""}
                </span>
                {answered && (
                  <span
                    className={`lanes-arrow reply${lost ? " lost" : ""}${(call.status ?? 0) >= 400 ? " failed" : ""}`}
                    style={{ left: `${replyEnd}%`, width: `${provider - replyEnd}%` }}
                  />
                )}
              </span>
              <span className="lanes-caption">
                <strong>Call {i + 1}</strong> +{formatDuration(Date.parse(call.at) - first)} · {call.path} ·{" "}
                <code title={call.key} data-testid="provider-key">
                  {derivedKey(call.key)}
                </code>{" "}
                · try {call.attempt}
                {call.status === null ? "" : ` · HTTP ${call.status}`} ·{" "}
                <span data-testid="provider-decision">{providerCallWords(call)}</span>
                {answered && ` (${formatDuration(call.durationMs)})`}
                {lost && <span className="badge danger">no reply</span>}
              </span>
            </li>
          );
        })}
      </LanesFigure>
    </section>
  );
}

/** A derived key, short: the payment's key in its short form, and what the shop derived it for (`pay_…9kX2/charge`). */
function derivedKey(key: string): string {
  const slash = key.lastIndexOf("/");
  return slash === -1 ? shortId(key) : `${shortId(key.slice(0, slash))}${key.slice(slash)}`;
}
