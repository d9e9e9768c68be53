import type { inferRouterOutputs } from "@trpc/server";
import type { TabTry, TryOutcome } from "~/app/_trpc/try-log";
import type { AppRouter } from "~/server/trpc/routers/_app";
import type { Order } from "./order";

export type Charge = inferRouterOutputs<AppRouter>["payments"]["charge"];

/** How the shop's last try answered, as the tab heard it. */
export type ChargeAnswer =
  | { kind: "charged"; charge: Charge }
  | { kind: "declined"; reason: string }
  | { kind: "refused"; message: string }
  | { kind: "stored_failure"; status: number }
  | { kind: "no_answer" };

/** Where this tab's latest Pay is: each step the customer can be at, and what ended it. */
export type Step =
  | { name: "ready" }
  /** The card is on its way to the provider, from its frame, to become a PaymentMethod. */
  | { name: "card" }
  /** The charge is out under the order's key, its tries retried by the links with that key. */
  | { name: "charging" }
  /** No connection: the step it stopped at resumes by itself when the connection returns. */
  | { name: "offline"; since: number }
  /** The provider made no PaymentMethod of the card: nothing went to the shop. */
  | { name: "card_refused"; message: string }
  | { name: "answered"; answer: ChargeAnswer };

export interface CheckoutState {
  step: Step;
  /** The latest Pay: an older one's answer still tells of a charge, but does not move the step. */
  run: number;
  /** The charge the server answered this tab with, from any Pay. */
  heard: Charge | null;
}

export type CheckoutEvent =
  { type: "step"; run: number; step: Step } | { type: "answered"; run: number; answer: ChargeAnswer };

export const STARTED: CheckoutState = { step: { name: "ready" }, run: 0, heard: null };

/** The one state machine of the customer's payment in this tab; the server's order is the other half of the view. */
export function checkout(state: CheckoutState, event: CheckoutEvent): CheckoutState {
  const heard =
    event.type === "answered" && event.answer.kind === "charged" ? event.answer.charge : state.heard;
  if (event.run < state.run) return { ...state, heard };
  const step: Step = event.type === "answered" ? { name: "answered", answer: event.answer } : event.step;
  return { step, run: event.run, heard };
}

/** What the customer is told, from the order as the server last said it and this tab's state: never two stories. */
export type PaymentStatusView =
  | { kind: "overcharged" }
  | { kind: "paid"; amountCents: number; cardLast4: string }
  | { kind: "offline" }
  | { kind: "card" }
  | {
      kind: "processing";
      try: number;
      maxTries: number;
      sameKey: boolean;
      previousStatus: number | null;
    }
  | { kind: "following" }
  | { kind: "needs_review" }
  | { kind: "unconfirmed" }
  /** `recorded`: the server's record of the decline (the order stays payable under a new key); else the tab's answer. */
  | { kind: "declined"; reason: string; cardLast4: string | null; recorded: boolean }
  | Extract<ChargeAnswer, { kind: "refused" | "stored_failure" | "no_answer" }>
  | { kind: "ready" };

export interface CheckoutView {
  /** The order with what this tab heard since it was read: a charge the server answered is paid, wherever it is drawn. */
  order: Order;
  status: PaymentStatusView;
  /** The card field and Pay are shown: the order is payable and nothing is known to settle it. */
  payable: boolean;
  /** A Pay of this tab is under way: its button waits (unless the lab unguards it). */
  busy: boolean;
  /** The earlier try's outcome is unknown: Pay finishes it, with the same key. */
  finishing: boolean;
  /** The offline step's start, for the tab's tries. */
  waitingSince: number | null;
}

/** Outcomes that leave the charge unknown: only the same key, sent again, can tell. */
const UNKNOWN_OUTCOMES: ReadonlySet<TryOutcome> = new Set<TryOutcome>([
  "in_flight",
  "interrupted",
  "network_error",
  "timed_out",
  "conflict",
  "unavailable",
]);

/** A failure the server says it ran or replayed: its stored answer (a server that stores failures), not a missing one. */
export function isStoredFailure(tabTry: TabTry): boolean {
  return (
    tabTry.outcome === "unavailable" && (tabTry.decision === "replayed" || tabTry.decision === "executed")
  );
}

/** The decline the customer is answering with another card: the last settled attempt, if it was declined. */
export function lastDecline(order: Order) {
  if (order.status !== "PENDING") return undefined;
  const settled = order.attempts.filter((attempt) => attempt.status !== "OPEN").at(-1);
  return settled?.status === "DECLINED" ? settled : undefined;
}

/** The current attempt reached the provider and is still open: the completer (or a retry) settles it. */
export function awaitingProvider(order: Order): boolean {
  const current = order.attempts.at(-1);
  return order.status === "PENDING" && current?.status === "OPEN" && current.providerCalled;
}

/** The order, with a charge the server answered this tab with and has not been read back yet. */
function knownOrder(order: Order, heard: Charge | null): Order {
  if (!heard || order.charges.length > 0 || heard.orderId !== order.id) return order;
  const charge = {
    id: heard.chargeId,
    amountCents: heard.amountCents,
    idempotencyKey: order.paymentKey,
    providerKey: null,
    providerRequestId: null,
    cardLast4: heard.cardLast4,
    naive: false,
    recordedBy: null,
    createdAt: heard.createdAt,
  };
  return { ...order, status: "PAID", charges: [charge] };
}

/** What is known of the money comes first, then what holds the key elsewhere, then this tab's step. */
export function checkoutView(
  serverOrder: Order,
  state: CheckoutState,
  tries: readonly TabTry[],
  { keyHeldElsewhere, maxTries }: { keyHeldElsewhere: boolean; maxTries: number },
): CheckoutView {
  const order = knownOrder(serverOrder, state.heard);
  const { step } = state;
  const busy = step.name === "card" || step.name === "charging" || step.name === "offline";
  const last = tries.at(-1);
  const finishing =
    order.status === "PENDING" &&
    !busy &&
    ((last !== undefined && UNKNOWN_OUTCOMES.has(last.outcome) && !isStoredFailure(last)) ||
      order.paymentKeyState === "in_progress");
  const view = (status: PaymentStatusView, payable = order.status === "PENDING"): CheckoutView => ({
    order,
    status,
    payable,
    busy,
    finishing,
    waitingSince: step.name === "offline" ? step.since : null,
  });

  const [first, ...extra] = order.charges;
  if (first && extra.length > 0) return view({ kind: "overcharged" }, false);
  if (first) return view({ kind: "paid", amountCents: first.amountCents, cardLast4: first.cardLast4 }, false);
  if (step.name === "offline") return view({ kind: "offline" });
  if (step.name === "card") return view({ kind: "card" });
  if (step.name === "charging") {
    const run = Math.max(0, ...tries.map((tabTry) => tabTry.run));
    const ofRun = tries.filter((tabTry) => tabTry.run === run);
    return view({
      kind: "processing",
      try: Math.max(1, ofRun.length),
      maxTries,
      sameKey: new Set(ofRun.map((tabTry) => tabTry.key)).size <= 1,
      previousStatus: ofRun.at(-2)?.status ?? null,
    });
  }
  if (order.status === "PENDING" && keyHeldElsewhere) return view({ kind: "following" });
  if (order.status === "PENDING" && order.attempts.at(-1)?.status === "NEEDS_REVIEW") {
    return view({ kind: "needs_review" });
  }
  const answer = step.name === "answered" ? step.answer : null;
  if (awaitingProvider(order) && answer?.kind !== "refused") return view({ kind: "unconfirmed" });
  const declined = lastDecline(order);
  if (declined) {
    return view({
      kind: "declined",
      reason: declined.declineReason ?? "",
      cardLast4: declined.cardLast4,
      recorded: true,
    });
  }
  if (step.name === "card_refused" || !answer || answer.kind === "charged") return view({ kind: "ready" });
  if (answer.kind === "declined") {
    return view({ kind: "declined", reason: answer.reason, cardLast4: null, recorded: false });
  }
  return view(answer);
}
