import type { ReactNode } from "react";

/**
 * Where a lanes figure's lanes sit across it, in percent: the sender, the
 * path between, then one lane per receiver (one receiver sits at 86).
 */
export function lanePositions(receivers: number) {
  const spread = Array.from({ length: receivers }, (_, i) =>
    receivers === 1 ? 86 : 66 + (26 * i) / Math.max(1, receivers - 1),
  );
  return { sender: 8, between: 40, receivers: spread };
}

/** A lanes figure's lanes and the names over them: the sender, the path between, then each receiver. */
export function laneLayout(names: { sender: string; between: string; receivers: readonly string[] }) {
  const { sender, between, receivers } = lanePositions(names.receivers.length);
  const heads = [
    { name: names.sender, x: sender },
    { name: names.between, x: between },
    ...names.receivers.map((name, i) => ({ name, x: receivers[i]! })),
  ];
  return { sender, between, receivers, heads };
}

/** A lanes figure: the lanes' names over its rows, one row per step. */
export function LanesFigure({
  heads,
  children,
}: {
  heads: ReadonlyArray<{ name: string; x: number }>;
  children: ReactNode;
}) {
  return (
    <div className="lanes-figure">
      <LanesHeads heads={heads} />
      <ol className="lanes-rows">{children}</ol>
    </div>
  );
}

/**
 * One exchange across a lanes figure's row: every lane's line, the request's arrow (unless it never crossed),
 * the box where the receiver worked (none where it did nothing), and the reply's arrow, cut at the network
 * where it was lost. Each lanes figure draws its marks here, so that they mean the same in every figure.
 */
export function LanesExchange({
  laneXs,
  from,
  between,
  to,
  request = true,
  work,
  reply,
}: {
  laneXs: readonly number[];
  from: number;
  between: number;
  to: number;
  request?: boolean;
  work: { mark: string | null; decision: string | null; label: ReactNode };
  reply: { arrow: "received" | "lost"; status: number | null } | null;
}) {
  const replyEnd = reply?.arrow === "lost" ? between : from;
  return (
    <span className="lanes-arrows" aria-hidden="true">
      {laneXs.map((x) => (
        <span key={x} className="lanes-line" style={{ left: `${x}%` }} />
      ))}
      {request && (
        <span className="lanes-arrow request" style={{ left: `${from}%`, width: `${to - from}%` }} />
      )}
      <span
        className={`lanes-work work-${work.mark || "none"} decision-${work.decision ?? "in-flight"}`}
        data-mark={work.mark || undefined}
        style={{ left: `${to}%` }}
      >
        {work.label}
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

/** The names over a lanes figure's lanes, each at its lane's place across it (in percent). */
function LanesHeads({ heads }: { heads: ReadonlyArray<{ name: string; x: number }> }) {
  return (
    <div className="lanes-heads" aria-hidden="true">
      {heads.map((head) => (
        <span key={head.name} style={{ left: `${head.x}%` }}>
          {head.name}
        </span>
      ))}
    </div>
  );
}
