"use client";

import { onlineManager, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import type { TRPCClient } from "@trpc/client";
import type { inferRouterInputs } from "@trpc/server";
import { useCallback, useReducer, useRef, useSyncExternalStore } from "react";
import type { TabTry, TryRun } from "~/app/_trpc/try-log";
import { describeFailure } from "~/app/_trpc/links";
import { useTRPC, useTRPCClient } from "~/app/_trpc/provider";
import { isRetryable } from "retry-policy";
import type { AppRouter } from "~/server/trpc/routers/_app";
import { STARTED, checkout, isStoredFailure } from "./checkout";
import type { Charge, ChargeAnswer, Step } from "./checkout";
import type { Order } from "./order";
import { tabTryLog } from "./tab-try-log";

/** The charge's input, always with the order's key. */
type ChargeRequest = Required<inferRouterInputs<AppRouter>["payments"]["charge"]>;

/** How a charge goes over the wire. The lab composes in another one (its naive client). */
export type SendCharge = (
  client: TRPCClient<AppRouter>,
  request: ChargeRequest,
  run: TryRun,
) => Promise<Charge>;

/** The one way to pay: the order's own key, retried by the links with that same key. */
export const sendCharge: SendCharge = (client, request, run) =>
  client.payments.charge.mutate(request, { context: { tries: run.recorder(request.idempotencyKey) } });

/** What the card field made of the card: a PaymentMethod's id, or why none. */
export type MadePaymentMethod =
  { ok: true; id: string } | { ok: false; reason: "invalid" | "refused" | "no_answer"; message: string };

const NO_TRIES: readonly TabTry[] = [];

/** Resolves at once when online, else when the connection returns. */
function untilOnline(): Promise<void> {
  return new Promise((resolve) => {
    if (onlineManager.isOnline()) return resolve();
    const stop = onlineManager.subscribe((online) => {
      if (!online) return;
      stop();
      resolve();
    });
  });
}

/** The server's answer to the charge, as the customer's view takes it. */
function answerOf(error: unknown, tries: readonly TabTry[]): ChargeAnswer {
  if (!(error instanceof TRPCClientError)) return { kind: "no_answer" };
  if ((error.data as { code?: string } | undefined)?.code === "PAYMENT_REQUIRED") {
    return { kind: "declined", reason: error.message };
  }
  if (!isRetryable(describeFailure(error))) return { kind: "refused", message: error.message };
  const last = tries.at(-1);
  return last && isStoredFailure(last)
    ? { kind: "stored_failure", status: last.status ?? 503 }
    : { kind: "no_answer" };
}

/** Pays with the order's persisted key; a step cut off by a lost connection resumes by itself when it returns. */
export function usePayment(
  order: Pick<Order, "id" | "totalCents" | "paymentKey">,
  makePaymentMethod: () => Promise<MadePaymentMethod>,
  send: SendCharge = sendCharge,
) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const tries = useSyncExternalStore(
    useCallback((listener: () => void) => tabTryLog(order.id).subscribe(listener), [order.id]),
    () => tabTryLog(order.id).tries,
    // The log lives in the tab; the server's render has none.
    () => NO_TRIES,
  );
  const [state, dispatch] = useReducer(checkout, STARTED);
  const runs = useRef(0);
  // Finish payment charges the latest PaymentMethod again, under the same key.
  const madeBefore = useRef<string | null>(null);

  const pay = async ({ finishing }: { finishing: boolean }) => {
    const run = ++runs.current;
    const step = (next: Step) => dispatch({ type: "step", run, step: next });
    const offline = async () => {
      step({ name: "offline", since: Date.now() });
      await untilOnline();
    };
    let paymentMethodId = finishing ? madeBefore.current : null;
    while (paymentMethodId === null) {
      if (!onlineManager.isOnline()) await offline();
      step({ name: "card" });
      const made = await makePaymentMethod();
      if (made.ok) paymentMethodId = made.id;
      else if (made.reason === "no_answer" && !onlineManager.isOnline()) continue;
      else
        return step(
          made.reason === "invalid" ? { name: "ready" } : { name: "card_refused", message: made.message },
        );
    }
    madeBefore.current = paymentMethodId;
    const request = {
      orderId: order.id,
      amountCents: order.totalCents,
      idempotencyKey: order.paymentKey,
      paymentMethodId,
    };
    // One run of tries in the tab's log, however often the connection cuts it: every try carries the same key.
    const tryRun = tabTryLog(order.id).startRun();
    let answer: ChargeAnswer = { kind: "no_answer" };
    do {
      if (!onlineManager.isOnline()) await offline();
      step({ name: "charging" });
      answer = await send(client, request, tryRun).then(
        (charge): ChargeAnswer => ({ kind: "charged", charge }),
        (error: unknown) => answerOf(error, tabTryLog(order.id).tries),
      );
    } while (answer.kind === "no_answer" && !onlineManager.isOnline());
    // The page shows the server's account of the payment: read it again.
    const reread = Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ orderId: order.id }) }),
      queryClient.invalidateQueries({ queryKey: trpc.ledger.pathKey() }),
    ]);
    // A decline opens the next attempt under a new key: Pay waits for the order that carries it.
    if (answer.kind === "declined") await reread;
    dispatch({ type: "answered", run, answer });
    await reread;
  };

  return { state, tries, pay: (finishing: boolean) => void pay({ finishing }) };
}
