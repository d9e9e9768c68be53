"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/app/_trpc/provider";

const LABELS: Array<[key: string, label: string]> = [
  ["executed", "Executed"],
  ["replayed", "Replayed"],
  ["coalesced", "Coalesced"],
  ["taken_over", "Taken over"],
  ["expired", "Expired, run again"],
  ["conflict", "409 in progress"],
  ["mismatch", "422 key reused"],
  ["refused", "Refused, nothing stored"],
  ["released", "Released after a failure"],
  ["lease_lost", "Lease lost"],
  ["abandoned", "Caller went away"],
];

/** This process's run-once decisions since it started, over every session (each instance counts its own). */
export function RunOncePanel() {
  const trpc = useTRPC();
  const metrics = useQuery(trpc.metrics.runOnce.queryOptions(undefined, { refetchInterval: 2_000 }));
  const data = metrics.data;
  return (
    <div data-testid="run-once-panel">
      <p className="muted small">
        Every request to a run-once procedure that this process answered, from any session, by how it ended.
        Prometheus reads the same counters at <a href="/api/metrics">/api/metrics</a>.
      </p>
      {data && (
        <dl className="decision-grid">
          {LABELS.map(([key, label]) => (
            <div key={key} data-decision={key}>
              <dt>{label}</dt>
              <dd>{data.outcomes[key as keyof typeof data.outcomes] ?? 0}</dd>
            </div>
          ))}
          <div>
            <dt>Mean wait of coalesced</dt>
            <dd>
              {data.coalescedWait.count > 0
                ? `${((data.coalescedWait.sumSeconds / data.coalescedWait.count) * 1000).toFixed(0)} ms`
                : "none yet"}
            </dd>
          </div>
        </dl>
      )}
    </div>
  );
}
