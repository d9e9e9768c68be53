"use client";

import { useQuery } from "@tanstack/react-query";
import { formatDuration } from "~/app/_lib/duration";
import { queueSummary } from "~/app/_lib/queue-summary";
import type { QueueStep } from "~/app/_lib/queue-summary";
import { useTRPC } from "~/app/_trpc/provider";
import { LanesFigure, lanePositions } from "./lanes-figure";

/** How often the worker's account is read: it runs beside the shop, on its own time. */
const READ_EVERY_MS = 1_500;

/**
 * The queue's lane of the figure, drawn from the receipt worker's own account
 * of the order's payment event: each publication into the queue, each
 * delivery to a worker process with what it decided, and its acknowledgement
 * back, or none when the worker died first; a dead-lettered message last.
 */
export function QueueLane({ orderId }: { orderId: string }) {
  const trpc = useTRPC();
  const account = useQuery(
    trpc.orders.queueAccount.queryOptions({ orderId }, { refetchInterval: READ_EVERY_MS }),
  );
  const steps = account.data ?? [];
  if (steps.length === 0) return null;
  const workers = [
    ...new Set(steps.flatMap((step) => (step.step === "delivered" && step.pid ? [step.pid] : []))),
  ];
  const { sender, between, receivers } = lanePositions(workers.length);
  const lanes = { publisher: sender, queue: between, workers: receivers };
  const heads = [
    { name: "Publisher", x: lanes.publisher },
    { name: "Queue", x: lanes.queue },
    ...workers.map((pid, i) => ({ name: `Worker ${pid}`, x: lanes.workers[i] ?? 86 })),
  ];
  const first = Date.parse(steps[0]!.at);
  let deliveries = 0;
  let receipts = 0;
  return (
    <section className="card server-account" aria-labelledby="queue-heading" data-testid="queue-lane">
      <h2 id="queue-heading">What the queue did</h2>
      <p className="muted small">
        The receipt for this payment goes through a queue that delivers at least once, from the receipt
        worker&apos;s own record: each publication, each delivery and what the worker did, and its
        acknowledgement.
      </p>
      <p className="account-summary" data-testid="queue-summary">
        {queueSummary(steps)}
      </p>
      <LanesFigure heads={heads}>
        {steps.map((step, i) => {
          if (step.step === "delivered") deliveries++;
          const sent = step.decision === "executed" || step.decision === "sent naively";
          if (sent) receipts++;
          const workerX = lanes.workers[workers.indexOf(step.pid ?? -1)] ?? 86;
          return (
            <QueueRow
              key={step.id}
              step={step}
              number={deliveries}
              sinceFirstMs={Date.parse(step.at) - first}
              lanes={lanes}
              workerX={workerX}
              laneXs={heads.map((head) => head.x)}
              redelivered={steps.slice(i + 1).some((later) => later.step === "delivered")}
              extraReceipt={sent && receipts > 1}
            />
          );
        })}
      </LanesFigure>
    </section>
  );
}

function QueueRow({
  step,
  number,
  sinceFirstMs,
  lanes,
  workerX,
  laneXs,
  redelivered,
  extraReceipt,
}: {
  step: QueueStep;
  /** Which delivery of the order's event this is, counted across copies. */
  number: number;
  sinceFirstMs: number;
  lanes: { publisher: number; queue: number };
  workerX: number;
  laneXs: readonly number[];
  /** Whether another delivery came after it. */
  redelivered: boolean;
  /** A receipt sent after the first: damage. */
  extraReceipt: boolean;
}) {
  const lines = laneXs.map((x) => <span key={x} className="lanes-line" style={{ left: `${x}%` }} />);
  const when = `+${formatDuration(sinceFirstMs)}`;
  if (step.step !== "delivered") {
    const published = step.step === "published";
    return (
      <li className="lanes-row" data-queue-step={published ? "publish" : "dead-letter"}>
        <span className="lanes-arrows" aria-hidden="true">
          {lines}
          {published && (
            <span
              className="lanes-arrow request"
              style={{ left: `${lanes.publisher}%`, width: `${lanes.queue - lanes.publisher}%` }}
            />
          )}
        </span>
        <span className="lanes-caption">
          {when} ·{" "}
          {published ? (
            "published into the queue"
          ) : (
            <>
              dead-lettered after delivery {step.delivery} <span className="badge danger">dead letter</span>
            </>
          )}
        </span>
      </li>
    );
  }
  const failed = step.decision === "failed";
  const sent = step.decision === "executed" || step.decision === "sent naively";
  const ack = step.ackedAt
    ? "acknowledged"
    : failed
      ? "handed back"
      : redelivered
        ? "died before its ack"
        : "no ack yet";
  return (
    <li
      className="lanes-row"
      data-queue-step={(step.delivery ?? 1) > 1 ? "redeliver" : "deliver"}
      data-decision={step.decision}
      data-acked={step.ackedAt !== null}
    >
      <span className="lanes-arrows" aria-hidden="true">
        {lines}
        <span
          className="lanes-arrow request"
          style={{ left: `${lanes.queue}%`, width: `${workerX - lanes.queue}%` }}
        />
        <span
          className={`lanes-work decision-${sent ? "executed" : failed ? "released" : "replayed"}`}
          style={{ left: `${workerX}%` }}
        >
          {sent ? "receipt" : ""}
        </span>
        <span
          className={`lanes-arrow reply${step.ackedAt ? "" : failed ? " failed" : " lost"}`}
          style={{ left: `${lanes.queue}%`, width: `${workerX - lanes.queue}%` }}
        />
      </span>
      <span className="lanes-caption">
        <strong>Delivery {number}</strong> {when} · the queue&apos;s delivery {step.delivery} to worker{" "}
        {step.pid} · <span data-testid="queue-decision">{step.decision}</span> ·{" "}
        <span data-testid="queue-ack">{ack}</span>
        {extraReceipt && <span className="badge danger">a second receipt</span>}
      </span>
    </li>
  );
}
