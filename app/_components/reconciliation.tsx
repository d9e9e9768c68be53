"use client";

import { useQuery } from "@tanstack/react-query";
import { formatCents } from "~/app/_lib/money";
import { useTRPC } from "~/app/_trpc/provider";
import { LedgerCheck } from "./ledger-check";

/**
 * The payment provider's charges of each order next to the shop's record of
 * them: the second ledger, kept by another service. They agree unless a
 * payment was left between the hops, or the provider was called with a new
 * key per attempt (the lab's counter-example).
 */
export function Reconciliation({ refreshMs }: { refreshMs: number }) {
  const trpc = useTRPC();
  const reconciliation = useQuery(
    trpc.ledger.reconciliation.queryOptions(undefined, { refetchInterval: refreshMs }),
  );
  return (
    <LedgerCheck
      name="reconciliation"
      title="At the payment provider"
      intro="The provider keeps its own ledger. Each of its charges should be one the shop recorded, and the other way round."
      query={reconciliation}
      empty="No orders yet in this session."
      failure={(message) => `The provider could not be asked: ${message}`}
      damaged={(order) => order.problems.length > 0}
      attributes={(order) => ({
        "data-reconciled-order": order.orderId,
        "data-problems": order.problems.length,
      })}
    >
      {(order) => (
        <>
          <span className="muted">
            provider: {order.providerCharges.length} charge{order.providerCharges.length === 1 ? "" : "s"} (
            {formatCents(order.providerCharges.reduce((sum, charge) => sum + charge.amountCents, 0))}), shop:{" "}
            {order.recordedCharges.length} recorded
          </span>
          {order.problems.length === 0 ? (
            <span className="badge attempt-succeeded">agrees</span>
          ) : (
            <>
              <span className="badge danger">disagrees</span>
              <ul className="small error">
                {order.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </LedgerCheck>
  );
}
