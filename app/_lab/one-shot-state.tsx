/**
 * What a one-shot switch is doing: armed for the next attempt, or spent on
 * an attempt (by number), as the server's switches and the attempts tell.
 */
export function OneShotState({ id, on, spentOn }: { id: string; on: boolean; spentOn: number | undefined }) {
  return (
    <p id={`${id}-state`} className="switch-state" data-testid={`${id}-state`}>
      {on && <span className="badge armed">armed for the next attempt</span>}
      {!on && spentOn !== undefined && <span className="badge spent">spent on attempt {spentOn}</span>}
    </p>
  );
}
