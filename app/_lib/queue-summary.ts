import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/trpc/routers/_app";

/** The receipt worker's own account of an order's payment event (orders.queueAccount). */
export type QueueStep = inferRouterOutputs<AppRouter>["orders"]["queueAccount"][number];

const SENT = new Set(["executed", "sent naively"]);

/** The most deliveries told one by one; the rest are counted. */
const TOLD = 6;

const plural = (count: number, noun: string, nouns = `${noun}s`) => `${count} ${count === 1 ? noun : nouns}`;

/** What one delivery came to, as a clause: what the consumer did, and what became of its ack. */
function clause(delivery: QueueStep, n: number, later: readonly QueueStep[], sentBefore: number): string {
  const did =
    delivery.decision === "executed"
      ? "sent it"
      : delivery.decision === "sent naively"
        ? sentBefore > 0
          ? "sent another naively"
          : "sent it naively"
        : delivery.decision === "failed"
          ? "failed"
          : delivery.decision;
  if (delivery.ackedAt || delivery.decision === "failed") return `delivery ${n} ${did}`;
  const redelivered = later.find((step) => step.step === "delivered");
  if (!redelivered) return `delivery ${n} ${did}, not yet acknowledged`;
  // Another process took the redelivery: the one that held it is gone.
  return redelivered.pid !== delivery.pid
    ? `delivery ${n} ${did} and died before its ack`
    : `delivery ${n} ${did} and was not acknowledged`;
}

/** What happened, from the worker's account: "2 deliveries; 1 receipt: delivery 1 sent it and died …". */
export function queueSummary(steps: readonly QueueStep[]): string {
  const published = steps.filter((step) => step.step === "published").length;
  const deliveries = steps.filter((step) => step.step === "delivered");
  const receipts = deliveries.filter((step) => SENT.has(step.decision ?? "")).length;
  const head = [
    ...(published > 1 ? [`published ${published} times`] : []),
    plural(deliveries.length, "delivery", "deliveries"),
    plural(receipts, "receipt"),
  ].join("; ");
  if (deliveries.length === 0) return `${head[0]!.toUpperCase()}${head.slice(1)}.`;
  const told = deliveries.slice(0, TOLD).map((delivery, i) => {
    const sentBefore = deliveries.slice(0, i).filter((step) => SENT.has(step.decision ?? "")).length;
    return clause(delivery, i + 1, steps.slice(steps.indexOf(delivery) + 1), sentBefore);
  });
  const rest = deliveries.length - told.length;
  const dead = steps.some((step) => step.step === "dead-lettered")
    ? "; its last allowed delivery failed, and the queue dead-lettered it"
    : "";
  const text = `${head}: ${told.join(", ")}${rest > 0 ? `, and ${rest} more` : ""}${dead}.`;
  return `${text[0]!.toUpperCase()}${text.slice(1)}`;
}
