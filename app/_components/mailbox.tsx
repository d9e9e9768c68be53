"use client";

import { useQuery } from "@tanstack/react-query";
import { mailboxStory } from "~/app/_lib/story/queue-story";
import type { MailboxStory } from "~/app/_lib/story/queue-story";
import { useTRPC } from "~/app/_trpc/provider";
import { LedgerCheck } from "./ledger-check";
import { LocalTime } from "./local-time";
import { formatCents } from "~/app/_lib/money";
import { shortId } from "~/app/_lib/short-id";

const BADGE_CLASS: Record<MailboxStory["verdict"]["badge"], string> = {
  sent: "badge attempt-succeeded",
  waiting: "badge",
  danger: "badge danger",
};

/** The mock mailbox, as the queue story tells it: the receipts sent for the session's paid orders, one per order. */
export function Mailbox({ refreshMs }: { refreshMs: number }) {
  const trpc = useTRPC();
  const mailbox = useQuery(
    trpc.ledger.mailbox.queryOptions(undefined, {
      refetchInterval: refreshMs,
      select: (orders) =>
        orders.map((order) => ({
          orderId: order.orderId,
          sent: order.account.receipts,
          ...mailboxStory(order.account),
        })),
    }),
  );
  return (
    <LedgerCheck
      name="mailbox"
      title="Mailbox"
      intro="After a payment, its receipt goes out through a queue that may deliver a message more than once. Each paid order should get exactly one."
      query={mailbox}
      empty="No paid orders yet in this session."
      damaged={(order) => order.damaged}
      attributes={(order) => ({
        "data-mailbox-order": order.orderId,
        "data-receipts": order.receipts.map((receipt) => receipt.id).join(" "),
      })}
    >
      {(order) => (
        <>
          <span className="muted">
            {order.count}
            {order.receipts.map((receipt) => (
              <span key={receipt.id}>
                {" "}
                · {receipt.by}, <LocalTime iso={receipt.createdAt} />
              </span>
            ))}
          </span>
          <span className={BADGE_CLASS[order.verdict.badge]} data-testid="mailbox-verdict">
            {order.verdict.words}
          </span>
          {order.verdict.why && <span data-testid="mailbox-why">{order.verdict.why}</span>}
          {order.sent.map((receipt) => (
            <details key={receipt.id} className="receipt" data-receipt={receipt.id}>
              <summary>Read receipt {shortId(receipt.id)}</summary>
              <p className="small">
                Receipt {receipt.id}. Thank you for your order {order.orderId}:{" "}
                {formatCents(receipt.amountCents)} was charged, as charge {receipt.chargeId}. Sent by worker{" "}
                {receipt.pid}
                {receipt.naive ? " (naive consumer)" : ""} on delivery {receipt.delivery} of its message.
              </p>
            </details>
          ))}
        </>
      )}
    </LedgerCheck>
  );
}
