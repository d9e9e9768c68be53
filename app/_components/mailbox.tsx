"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/app/_trpc/provider";
import { LedgerCheck } from "./ledger-check";
import { LocalTime } from "./local-time";

/** The mock mailbox: the receipts sent for the session's paid orders, one per order; a second is damage. */
export function Mailbox({ refreshMs }: { refreshMs: number }) {
  const trpc = useTRPC();
  const mailbox = useQuery(trpc.ledger.mailbox.queryOptions(undefined, { refetchInterval: refreshMs }));
  return (
    <LedgerCheck
      name="mailbox"
      title="Mailbox"
      intro="After a payment, its receipt goes out through a queue that may deliver a message more than once. Each paid order should get exactly one."
      query={mailbox}
      empty="No paid orders yet in this session."
      damaged={(order) => order.receipts.length > 1}
      attributes={(order) => ({
        "data-mailbox-order": order.orderId,
        "data-receipts": order.receipts.length,
        "data-dead-lettered": order.deadLettered,
      })}
    >
      {(order) => (
        <>
          <span className="muted">
            {order.receipts.length} receipt{order.receipts.length === 1 ? "" : "s"}
            {order.receipts.map((receipt) => (
              <span key={receipt.id}>
                {" "}
                · delivery {receipt.delivery}
                {receipt.naive ? " (naive consumer)" : ""}, <LocalTime iso={receipt.createdAt} />
              </span>
            ))}
          </span>
          {order.receipts.length === 0 &&
            (order.deadLettered ? (
              <span className="badge danger">dead-lettered: no receipt</span>
            ) : (
              <span className="badge">on its way</span>
            ))}
          {order.receipts.length === 1 && <span className="badge attempt-succeeded">sent once</span>}
          {order.receipts.length > 1 && (
            <span className="badge danger">sent {order.receipts.length} times</span>
          )}
        </>
      )}
    </LedgerCheck>
  );
}
