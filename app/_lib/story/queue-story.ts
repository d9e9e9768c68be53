import type { inferRouterOutputs } from "@trpc/server";
import { formatDuration } from "~/app/_lib/duration";
import { plural } from "./plural";
import type { AppRouter } from "~/server/trpc/routers/_app";

/** The receipt worker's account of an order's payment event, and the receipts it sent (orders.queueAccount). */
export type QueueAccount = inferRouterOutputs<AppRouter>["orders"]["queueAccount"];
/** What an order's receipts come from, without the worker's steps (ledger.mailbox). */
export type ReceiptAccount = Omit<QueueAccount, "steps">;
type Step = QueueAccount["steps"][number];
type Receipt = QueueAccount["receipts"][number];

interface RowBase {
  id: string;
  /** "+0.42 s": since the figure's first row. */
  when: string;
}

export type QueueRow =
  (RowBase & { kind: "publish" | "dead-letter"; caption: string }) | (RowBase & DeliveryRow);

export interface DeliveryRow {
  kind: "delivery";
  number: number;
  /** Its worker's lane, an index into the story's `workers`. */
  worker: number;
  to: string;
  /** The queue's own count of the message's deliveries: a redelivery has more than 1. */
  redelivery: boolean;
  /** As the worker recorded it; null when it never did (it died first): the row is drawn from its receipt. */
  decision: string | null;
  /** Exactly the receipts whose own row names this delivery; `extra` when the order had one before: damage. */
  receipts: Array<Pick<Receipt, "id" | "naive"> & { extra: boolean }>;
  /** The box on the worker's lane: a receipt sent, answered without one, or failed. */
  box: "receipt" | "answered" | "failed";
  outcome: string;
  ack: { arrow: "acked" | "handed back" | "none"; words: string };
  /** Set when it sent a receipt beyond the order's first. */
  damage: string | null;
}

export interface QueueStory {
  /** The worker processes, one lane each, in the order they first took a delivery. */
  workers: Array<{ pid: number | null; name: string }>;
  rows: QueueRow[];
  /** What happened, numbering the deliveries as the rows do. */
  sentence: string;
}

/** The most deliveries the sentence tells one by one; the rest are counted. */
const TOLD = 6;

const capitalized = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;
const ORDINALS = ["first", "second", "third", "fourth", "fifth"];

/** A delivery before it is numbered: its recorded step, or only the receipts that name it. */
interface Delivery {
  id: string;
  at: number;
  eventId: string;
  queueCount: number | null;
  pid: number | null;
  step: Step | null;
  receipts: Receipt[];
}

/** Everything the queue lane says and draws, with one numbering: a delivery only a receipt names is drawn from it. */
export function queueStory(account: QueueAccount): QueueStory {
  const deliveries = deliveriesOf(account);
  const others = account.steps.filter((step) => step.step !== "delivered");
  const timeline = [
    ...others.map((step) => ({ at: Date.parse(step.at), step, delivery: null })),
    ...deliveries.map((delivery) => ({ at: delivery.at, step: null, delivery })),
  ].sort((a, b) => a.at - b.at);
  const first = timeline[0]?.at ?? 0;
  const numbered = deliveries.slice().sort((a, b) => a.at - b.at);
  const pids = [...new Set(numbered.map((delivery) => delivery.pid))];
  const workerName = (pid: number | null) => `worker ${pid ?? "?"}`;
  const numberOf = (delivery: Delivery) => numbered.indexOf(delivery) + 1;
  const firstReceipt = account.receipts[0]?.id;
  const clauses: string[] = [];

  const rows = timeline.map(({ at, step, delivery }): QueueRow => {
    const when = `+${formatDuration(at - first)}`;
    if (!delivery) {
      const published = step!.step === "published";
      const after = published ? undefined : deadLetteredAfter(step!, numbered);
      return {
        kind: published ? "publish" : "dead-letter",
        id: step!.id,
        when,
        caption: published
          ? "published into the queue"
          : `dead-lettered${after ? ` after delivery ${numberOf(after)}` : ""}`,
      };
    }
    const later = numbered.slice(numberOf(delivery)).filter((next) => next.eventId === delivery.eventId);
    const before = account.receipts.findIndex((receipt) => receipt.id === delivery.receipts[0]?.id);
    const told = tell(delivery, { later, answeredBy: answeredBy(delivery, numbered), numberOf, before });
    clauses.push(`delivery ${numberOf(delivery)} ${told.clause}`);
    return {
      kind: "delivery",
      id: delivery.id,
      when,
      number: numberOf(delivery),
      worker: pids.indexOf(delivery.pid),
      to: `to ${workerName(delivery.pid)}`,
      redelivery: (delivery.queueCount ?? 1) > 1,
      decision: delivery.step?.decision ?? null,
      receipts: delivery.receipts.map((receipt) => ({
        id: receipt.id,
        naive: receipt.naive,
        extra: receipt.id !== firstReceipt,
      })),
      box: delivery.receipts.length > 0 ? "receipt" : told.failed ? "failed" : "answered",
      outcome: told.outcome,
      ack: told.ack,
      damage: before > 0 ? `a ${ORDINALS[before] ?? `${before + 1}th`} receipt` : null,
    };
  });
  return {
    workers: pids.map((pid) => ({ pid, name: capitalized(workerName(pid)) })),
    rows,
    sentence: sentenceOf(account, clauses, rows),
  };
}

/** Every delivery: each recorded one, with the receipts that name it, then each one only a receipt names. */
function deliveriesOf(account: QueueAccount): Delivery[] {
  const steps = account.steps.filter((step) => step.step === "delivered");
  const ids = new Set([
    ...steps.map((step) => step.id),
    ...account.receipts.map((receipt) => receipt.deliveryId),
  ]);
  return [...ids].map((id) => {
    const step = steps.find((recorded) => recorded.id === id) ?? null;
    const receipts = account.receipts.filter((receipt) => receipt.deliveryId === id);
    const from = step ?? receipts[0]!;
    const at = Date.parse(step?.at ?? receipts[0]!.createdAt);
    return { id, at, eventId: from.eventId, queueCount: from.delivery, pid: from.pid, step, receipts };
  });
}

/** The delivery whose receipt a replay or a wait answered with: the last keyed one made before it, else the first. */
function answeredBy(delivery: Delivery, deliveries: readonly Delivery[]): Delivery | undefined {
  const keyed = deliveries.filter((other) => other.receipts.some((receipt) => !receipt.naive));
  return keyed.filter((other) => other.at <= delivery.at).at(-1) ?? keyed[0];
}

/** The delivery a dead-lettering followed: its event's delivery with the queue's count, else its last. */
function deadLetteredAfter(step: Step, deliveries: readonly Delivery[]): Delivery | undefined {
  const ofEvent = deliveries.filter((delivery) => delivery.eventId === step.eventId);
  return ofEvent.find((delivery) => delivery.queueCount === step.delivery) ?? ofEvent.at(-1);
}

/** A delivery's outcome, its ack, and the clause the sentence tells of it, all from the same facts. */
function tell(
  delivery: Delivery,
  facts: {
    /** The later deliveries of its event. */
    later: readonly Delivery[];
    answeredBy: Delivery | undefined;
    numberOf: (delivery: Delivery) => number;
    /** The receipts the order had before this delivery's first. */
    before: number;
  },
) {
  const decision = delivery.step?.decision ?? null;
  const receipt = delivery.receipts[0];
  const failed = decision === "failed" && !receipt;
  const source = facts.answeredBy ? `delivery ${facts.numberOf(facts.answeredBy)}'s receipt` : "the key";
  let outcome: string;
  let did: string;
  if (receipt?.naive) {
    outcome = "sent naively: a receipt without the key";
    did = facts.before > 0 ? "sent another naively" : "sent it naively";
  } else if (receipt) {
    const how =
      decision === "taken_over"
        ? "took over the key and "
        : decision === "expired"
          ? "found the key expired and "
          : "";
    outcome = delivery.step
      ? `${decision}: ${how}sent the receipt`
      : "sent the receipt (no record of this delivery: drawn from the receipt's own row)";
    did = `${how}sent it`;
  } else if (decision === "replayed") {
    outcome = `replayed: answered with ${source}, none sent`;
    did = `replayed ${source}`;
  } else if (decision === "coalesced") {
    outcome = `coalesced: waited for ${source}, none sent`;
    did = `waited for ${source}`;
  } else if (failed) {
    outcome = "failed: no receipt";
    did = "failed";
  } else {
    outcome = `${decision}, yet no receipt names this delivery`;
    did = `${decision} without a receipt`;
  }
  const ack = delivery.step?.ackedAt
    ? ACKS.acked
    : failed
      ? ACKS.handedBack
      : facts.later.length === 0
        ? ACKS.pending
        : // Another process took the redelivery: the one that held it is gone.
          facts.later[0]!.pid !== delivery.pid
          ? ACKS.died
          : ACKS.unacknowledged;
  return { outcome, ack: { arrow: ack.arrow, words: ack.words }, failed, clause: `${did}${ack.clause}` };
}

/** What became of a delivery's ack: the arrow back, the caption's words, and the sentence's. */
const ACKS = {
  acked: { arrow: "acked", words: "acknowledged", clause: "" },
  handedBack: { arrow: "handed back", words: "handed back", clause: "" },
  pending: { arrow: "none", words: "no ack yet", clause: ", not yet acknowledged" },
  died: { arrow: "none", words: "died before its ack", clause: " and died before its ack" },
  unacknowledged: { arrow: "none", words: "not acknowledged", clause: " and was not acknowledged" },
} as const satisfies Record<string, DeliveryRow["ack"] & { clause: string }>;

/** "2 deliveries; 1 receipt: delivery 1 sent it and died before its ack, delivery 2 replayed delivery 1's receipt." */
function sentenceOf(account: QueueAccount, clauses: readonly string[], rows: readonly QueueRow[]): string {
  const published = account.steps.filter((step) => step.step === "published").length;
  const head = [
    ...(published > 1 ? [`published ${published} times`] : []),
    plural(clauses.length, "delivery", "deliveries"),
    plural(account.receipts.length, "receipt"),
  ].join("; ");
  if (clauses.length === 0) return `${capitalized(head)}.`;
  const told = clauses.slice(0, TOLD);
  const rest = clauses.length - told.length;
  const dead = rows.some((row) => row.kind === "dead-letter")
    ? "; its last allowed delivery failed, and the queue dead-lettered it"
    : "";
  return capitalized(`${head}: ${told.join(", ")}${rest > 0 ? `, and ${rest} more` : ""}${dead}.`);
}

/** What the mailbox says of an order: its receipts, each by the worker that sent it, and a verdict. */
export interface MailboxStory {
  count: string;
  receipts: Array<{ id: string; by: string; createdAt: string }>;
  /** A badge's few words, and why, when no receipt will come. */
  verdict: { words: string; badge: "sent" | "waiting" | "danger"; why: string | null };
  /** More than one receipt: the line is drawn as damage. */
  damaged: boolean;
}

/** "On its way" only while the payment's event can still bring a receipt; otherwise why none will come. */
export function mailboxStory(account: ReceiptAccount): MailboxStory {
  const sent = account.receipts.length;
  const none = (why: string) => ({ words: "no receipt will come", badge: "danger" as const, why });
  const verdict: MailboxStory["verdict"] =
    sent > 1
      ? { words: `sent ${sent} times`, badge: "danger", why: null }
      : sent === 1
        ? { words: "sent once", badge: "sent", why: null }
        : account.events.length === 0
          ? none(
              account.chargedNaively
                ? "the naive client's charge wrote no payment.succeeded event"
                : "its charge skipped the outbox (a lab pitfall): no payment.succeeded event",
            )
          : account.events.every((event) => event.deadLettered)
            ? none("the queue dead-lettered its payment event")
            : { words: "on its way", badge: "waiting", why: null };
  return {
    count: plural(sent, "receipt"),
    receipts: account.receipts.map((receipt) => ({
      id: receipt.id,
      by: `by worker ${receipt.pid}${receipt.naive ? " (naive consumer)" : ""}`,
      createdAt: receipt.createdAt,
    })),
    verdict,
    damaged: sent > 1,
  };
}
