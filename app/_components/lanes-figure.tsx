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
