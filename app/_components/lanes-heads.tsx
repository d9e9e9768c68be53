/** The names over a lanes figure's lanes, each at its lane's place across it (in percent). */
export function LanesHeads({ heads }: { heads: ReadonlyArray<{ name: string; x: number }> }) {
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
