/** A duration as a person reads it: "0.42 s", "12 s", "3 min 05 s". */
export function formatDuration(ms: number): string {
  // Wall clocks can step back (a clock sync between two readings): a duration is never negative.
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) return `${(clamped / 1000).toFixed(2)} s`;
  if (clamped < 60_000) return `${Math.round(clamped / 1000)} s`;
  const seconds = Math.round(clamped / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}
