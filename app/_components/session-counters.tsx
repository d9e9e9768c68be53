"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/app/_trpc/provider";

/** This session's counts, from its own keys, charges and attempts: a new session starts at zero. */
export function SessionCounters() {
  const trpc = useTRPC();
  const counters = useQuery(trpc.ledger.counters.queryOptions(undefined, { refetchInterval: 2_000 })).data;
  if (!counters) return null;
  const items: Array<{ id: string; label: string; value: number; damage?: boolean }> = [
    { id: "charges", label: "Charges", value: counters.charges },
    {
      id: "extra-charges",
      label: "Extra charges",
      value: counters.extraCharges,
      damage: counters.extraCharges > 0,
    },
    { id: "declined", label: "Declined attempts", value: counters.declinedAttempts },
    { id: "keys-completed", label: "Keys run once", value: counters.keysCompleted },
    { id: "answered-from-store", label: "Answered from a stored result", value: counters.answeredFromStore },
    { id: "keys-in-progress", label: "Keys in progress", value: counters.keysInProgress },
  ];
  return (
    <dl className="counters" aria-label="Your session" data-testid="session-counters">
      {items.map((item) => (
        <div key={item.id} data-counter={item.id} className={item.damage ? "damage" : undefined}>
          <dt>{item.label}</dt>
          <dd>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
