"use client";

import { useQuery } from "@tanstack/react-query";
import { formatCents } from "~/app/_lib/money";
import { useTRPC } from "~/app/_trpc/provider";
import { LedgerCheck } from "./ledger-check";

/** The provider's charges of each order beside the shop's record: the second ledger, another service's. */
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
