import type { ReactNode } from "react";

/** A lanes figure's lanes in percent, and the names over them: the sender, the path between, then each receiver. */
export function laneLayout(senderName: string, betweenName: string, receiverNames: readonly string[]) {
  const [sender, between, count] = [8, 40, receiverNames.length];
  // A lone receiver at 86; several spread from 66 to 92.
  const receivers = receiverNames.map((_, i) => (count === 1 ? 86 : 66 + (26 * i) / (count - 1)));
  const heads = [
    { name: senderName, x: sender },
    { name: betweenName, x: between },
    ...receiverNames.map((name, i) => ({ name, x: receivers[i]! })),
  ];
  return { sender, between, receivers, heads, xs: heads.map((head) => head.x) };
}

export type LaneLayout = ReturnType<typeof laneLayout>;

/** A lanes figure: the lanes' names over its rows, one row per step. */
export function LanesFigure({ heads, children }: { heads: LaneLayout["heads"]; children: ReactNode }) {
  return (
    <div className="lanes-figure">
      <div className="lanes-heads" aria-hidden="true">
        {heads.map((head) => (
          <span key={head.name} style={{ left: `${head.x}%` }}>
            {head.name}
          </span>
        ))}
      </div>
      <ol className="lanes-rows">{children}</ol>
    </div>
  );
}

/** What a receiver did, as its box is drawn: the same decision gets the same box and word in every lane. */
export interface Work {
  /** The receiver's decision under the key (run-once's words), null while in flight. */
  decision: string | null;
  status: number | null;
  /** What the work left in a ledger: a charge or a decline made there, or a charge another call made, recorded. */
  mark?: "charge" | "decline" | "record" | null;
  /** It ran, found the key held, waited for its holder and shared its record (a webhook before the reply). */
  waited?: boolean;
  /** It was sent and no answer came back (its server stopped, or the connection failed). */
  noAnswer?: boolean;
}

type Tone = "done" | "answered" | "refused";

/** The one mapping from a decision to its box: its word, and its tone (done, answered from another's work, refused). */
export function boxOf({ decision, status, mark, waited, noAnswer }: Work): { word: string; tone: Tone } {
  if (mark) return { word: mark, tone: "done" };
  if (noAnswer) return { word: "no answer", tone: "refused" };
  const failed = status !== null && status >= 400;
  switch (decision) {
    case null:
      // In flight; or answered before any key was looked at (a provider's 503).
      return status === null ? { word: "running", tone: "done" } : { word: String(status), tone: "refused" };
    case "replayed":
      return { word: "replay", tone: "answered" };
    case "coalesced":
      return { word: "wait", tone: "answered" };
    case "abandoned":
      // Its client left: it waited for another's execution, or its own went on.
      return waited ? { word: "wait", tone: "answered" } : { word: "ran", tone: "done" };
    case "lease_lost":
      return { word: "lost", tone: "refused" };
    case "conflict":
    case "mismatch":
    case "refused":
    case "released":
      return { word: String(status ?? "failed"), tone: "refused" };
  }
  if (waited) return { word: "wait", tone: "answered" };
  // It ran (executed, took over, found the key expired): a failure it stored, or work that left no mark.
  return failed ? { word: `${status} stored`, tone: "refused" } : { word: "ran", tone: "done" };
}

/** One exchange across a row, drawn here alone so that its arrows and boxes mean the same in every figure. */
export function LanesExchange({
  layout: { sender: from, between, receivers, xs },
  to = receivers[0]!,
  request = true,
  work,
  reply,
}: {
  layout: LaneLayout;
  /** The receiver's lane; the first unless given. */
  to?: number;
  request?: boolean;
  work: Work;
  reply: { arrow: "received" | "lost"; status: number | null } | null;
}) {
  const replyEnd = reply?.arrow === "lost" ? between : from;
  const box = boxOf(work);
  return (
    <span className="lanes-arrows" aria-hidden="true">
      {xs.map((x) => (
        <span key={x} className="lanes-line" style={{ left: `${x}%` }} />
      ))}
      {request && (
        <span className="lanes-arrow request" style={{ left: `${from}%`, width: `${to - from}%` }} />
      )}
      <span
        className={`lanes-work tone-${box.tone}`}
        data-mark={work.mark || undefined}
        style={{ left: `${to}%` }}
      >
        {box.word}
      </span>
      {reply && (
        <span
          className={`lanes-arrow reply${reply.arrow === "lost" ? " lost" : ""}${(reply.status ?? 0) >= 400 ? " failed" : ""}`}
          data-reply-arrow={reply.arrow}
          style={{ left: `${replyEnd}%`, width: `${to - replyEnd}%` }}
        />
      )}
    </span>
  );
}
