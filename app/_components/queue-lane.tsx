"use client";

import { useQuery } from "@tanstack/react-query";
import { queueStory } from "~/app/_lib/story/queue-story";
import type { DeliveryRow, QueueRow } from "~/app/_lib/story/queue-story";
import { useTRPC } from "~/app/_trpc/provider";
import { LanesFigure, laneLayout } from "./lanes-figure";
import type { LaneLayout } from "./lanes-figure";

/** How often the worker's account is read: it runs beside the shop, on its own time. */
const READ_EVERY_MS = 1_500;

/** The queue's lane: each publication, each delivery with what its worker did, and its acknowledgement. */
export function QueueLane({ orderId }: { orderId: string }) {
  const trpc = useTRPC();
  const account = useQuery(
    trpc.orders.queueAccount.queryOptions({ orderId }, { refetchInterval: READ_EVERY_MS }),
  );
  if (!account.data) return null;
  const story = queueStory(account.data);
  if (story.rows.length === 0) return null;
  const workers = story.workers.map((worker) => worker.name);
  const layout = laneLayout("Publisher", "Queue", workers);
  return (
    <section className="card server-account" aria-labelledby="queue-heading" data-testid="queue-lane">
      <h2 id="queue-heading">What the queue did</h2>
      <p className="muted small">
        The receipt for this payment goes through a queue that delivers at least once, from the receipt
        worker&apos;s own record and the receipts themselves: each publication, each delivery and what the
        worker did, and its acknowledgement.
      </p>
      <p className="account-summary" data-testid="queue-summary">
        {story.sentence}
      </p>
      <LanesFigure heads={layout.heads}>
        {story.rows.map((row) => (
          <QueueRowView key={row.id} row={row} layout={layout} />
        ))}
      </LanesFigure>
    </section>
  );
}

/** A delivery's box, in the tones of the other lanes' (boxOf): a receipt sent, answered from the key, or failed. */
const BOX: Record<DeliveryRow["box"], { tone: string; word: string | null }> = {
  receipt: { tone: "tone-done", word: null },
  answered: { tone: "tone-answered", word: "replay" },
  failed: { tone: "tone-refused", word: "failed" },
};
/** The arrow back to the queue; a worker that died before its ack sent none, so none is drawn. */
const ACK_CLASS: Record<DeliveryRow["ack"]["arrow"], string | null> = {
  acked: "",
  "handed back": " failed",
  none: null,
};

function QueueRowView({ row, layout }: { row: QueueRow; layout: LaneLayout }) {
  const { sender, between, receivers, xs } = layout;
  const lines = xs.map((x) => <span key={x} className="lanes-line" style={{ left: `${x}%` }} />);
  if (row.kind !== "delivery") {
    return (
      <li className="lanes-row" data-queue-step={row.kind}>
        <span className="lanes-arrows" aria-hidden="true">
          {lines}
          {row.kind === "publish" && (
            <span
              className="lanes-arrow request"
              style={{ left: `${sender}%`, width: `${between - sender}%` }}
            />
          )}
        </span>
        <span className="lanes-caption">
          {row.when} · {row.caption}
          {row.kind === "dead-letter" && <span className="badge danger">dead letter</span>}
        </span>
      </li>
    );
  }
  const workerX = receivers[row.worker]!;
  const arrow = { left: `${between}%`, width: `${workerX - between}%` };
  return (
    <li
      className="lanes-row"
      data-queue-step={row.redelivery ? "redeliver" : "deliver"}
      data-delivery={row.number}
      data-delivery-id={row.id}
      data-decision={row.decision ?? "unrecorded"}
      data-receipts={row.receipts.map((receipt) => receipt.id).join(" ")}
      data-ack={row.ack.arrow}
    >
      <span className="lanes-arrows" aria-hidden="true">
        {lines}
        <span className="lanes-arrow request" style={arrow} />
        <span className={`lanes-work ${BOX[row.box].tone}`} style={{ left: `${workerX}%` }}>
          {BOX[row.box].word ??
            row.receipts.map((receipt) => (
              <span key={receipt.id} data-receipt-mark={receipt.id}>
                receipt
              </span>
            ))}
        </span>
        {ACK_CLASS[row.ack.arrow] !== null && (
          <span className={`lanes-arrow reply${ACK_CLASS[row.ack.arrow]}`} style={arrow} />
        )}
      </span>
      <span className="lanes-caption">
        <strong>Delivery {row.number}</strong> {row.when} · {row.to} ·{" "}
        <span data-testid="queue-outcome">{row.outcome}</span> ·{" "}
        <span data-testid="queue-ack">{row.ack.words}</span>
        {row.damage && <span className="badge danger">{row.damage}</span>}
      </span>
    </li>
  );
}
