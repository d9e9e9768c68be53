"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import type { TRPCClient } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import { useCallback, useReducer, useSyncExternalStore } from "react";
import type { Attempt, AttemptOutcome, AttemptRun } from "~/app/_trpc/attempt-log";
import { describeFailure } from "~/app/_trpc/links";
import { useTRPC, useTRPCClient } from "~/app/_trpc/provider";
import { DEFAULT_RETRY_SETTINGS, isRetryable } from "retry-policy";
import type { AppRouter } from "~/server/trpc/routers/_app";
import { PaymentMethodError, createPaymentMethod } from "./provider-payment-method";
import type { CardDetails, PaymentProviderEndpoint } from "./provider-payment-method";
import { tabAttemptLog } from "./tab-attempt-log";

interface PayableOrder {
  id: string;
  totalCents: number;
  paymentKey: string;
}

export interface ChargeRequest {
  orderId: string;
  amountCents: number;
  idempotencyKey: string;
  /** Made at the provider by the browser: the shop never sees the card. */
  paymentMethodId: string;
}

export type Charge = inferRouterOutputs<AppRouter>["payments"]["charge"];

/** How a charge goes over the wire. The lab composes in another one (its naive client). */
export type SendCharge = (
  client: TRPCClient<AppRouter>,
  request: ChargeRequest,
  run: AttemptRun,
) => Promise<Charge>;

/** The one way to pay: the order's own key, retried by the links with that same key. */
const sendCharge: SendCharge = (client, request, run) =>
  client.payments.charge.mutate(request, { context: { attempts: run.recorder(request.idempotencyKey) } });

/** What this tab's payment is doing; what the server holds is the order's to say. */
export type PaymentProgress =
  | { phase: "idle" }
  /** The provider made no payment method of the card (refused it, or did not answer): nothing was sent to the shop. */
  | { phase: "no_payment_method"; message: string }
  | { phase: "waiting_for_connection"; since: number }
  | {
      phase: "processing";
      attempt: number;
      maxAttempts: number;
      sameKey: boolean;
      /** The status the previous try was answered with; null when no answer reached the tab. */
      previousStatus: number | null;
    }
  | { phase: "charged"; charge: Charge }
  | { phase: "declined"; reason: string }
  | { phase: "refused"; message: string }
  | { phase: "no_answer" }
  | { phase: "stored_failure"; status: number };

/** Outcomes that leave the charge unknown: only the same key, sent again, can tell. */
const UNKNOWN_OUTCOMES: ReadonlySet<AttemptOutcome> = new Set<AttemptOutcome>([
  "in_flight",
  "interrupted",
  "network_error",
  "timed_out",
  "conflict",
  "unavailable",
]);

const NO_ATTEMPTS: readonly Attempt[] = [];

/**
 * Pays an order with its persisted key, the same on every click, retry and reload; offline, it waits.
 * Each Pay first turns the card into a payment method at the provider, from the browser.
 */
export function usePayment(
  order: PayableOrder,
  provider: PaymentProviderEndpoint,
  send: SendCharge = sendCharge,
) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const attempts = useSyncExternalStore(
    useCallback((listener: () => void) => tabAttemptLog(order.id).subscribe(listener), [order.id]),
    () => tabAttemptLog(order.id).attempts,
    // The log lives in the tab; the server's render has none.
    () => NO_ATTEMPTS,
  );

  // React Query tells its observers a tick later: a render of our own shows a Pay as pending at once,
  // so the button is disabled before a double-click's second click, while the payment method is made.
  const [, renderPending] = useReducer((renders: number) => renders + 1, 0);
  const mutation = useMutation({
    mutationFn: async (card: CardDetails) => {
      // Made once per Pay, before the charge: every retry of this charge sends the same payment method.
      const paymentMethodId = await createPaymentMethod(provider, card);
      return send(
        client,
        {
          orderId: order.id,
          amountCents: order.totalCents,
          idempotencyKey: order.paymentKey,
          paymentMethodId,
        },
        tabAttemptLog(order.id).startRun(),
      );
    },
    // Settled only once the order is read again, so the page shows the server's account of it.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ orderId: order.id }) }),
        queryClient.invalidateQueries({ queryKey: trpc.ledger.pathKey() }),
      ]),
  });

  return {
    progress: progressOf(mutation, attempts),
    attempts,
    pay: (card: CardDetails) => {
      mutation.mutate(card);
      renderPending();
    },
    /** The tab's last attempt never learned its outcome (a reload, a lost answer, no connection). */
    outcomeUnknown: !mutation.isPending && outcomeUnknown(attempts.at(-1)),
  };
}

/** A failure the server says it ran or replayed: its stored answer (a server that stores failures), not a missing one. */
function isStoredFailure(attempt: Attempt): boolean {
  return (
    attempt.outcome === "unavailable" && (attempt.decision === "replayed" || attempt.decision === "executed")
  );
}

function outcomeUnknown(last: Attempt | undefined): boolean {
  return last !== undefined && UNKNOWN_OUTCOMES.has(last.outcome) && !isStoredFailure(last);
}

function progressOf(
  mutation: {
    status: "idle" | "pending" | "success" | "error";
    isPaused: boolean;
    submittedAt: number;
    data?: Charge;
    error: unknown;
  },
  attempts: readonly Attempt[],
): PaymentProgress {
  if (mutation.status === "pending") {
    if (mutation.isPaused) return { phase: "waiting_for_connection", since: mutation.submittedAt };
    const run = Math.max(0, ...attempts.map((attempt) => attempt.run));
    const ofRun = attempts.filter((attempt) => attempt.run === run);
    return {
      phase: "processing",
      attempt: Math.max(1, ofRun.length),
      maxAttempts: DEFAULT_RETRY_SETTINGS.maxAttempts,
      sameKey: new Set(ofRun.map((attempt) => attempt.key)).size <= 1,
      previousStatus: ofRun.at(-2)?.status ?? null,
    };
  }
  if (mutation.status === "success" && mutation.data) return { phase: "charged", charge: mutation.data };
  if (mutation.status === "error") {
    const error = mutation.error;
    if (error instanceof PaymentMethodError) return { phase: "no_payment_method", message: error.message };
    if (!(error instanceof TRPCClientError)) return { phase: "no_answer" };
    if ((error.data as { code?: string } | undefined)?.code === "PAYMENT_REQUIRED") {
      return { phase: "declined", reason: error.message };
    }
    if (!isRetryable(describeFailure(error))) return { phase: "refused", message: error.message };
    const last = attempts.at(-1);
    if (last && isStoredFailure(last)) return { phase: "stored_failure", status: last.status ?? 503 };
    return { phase: "no_answer" };
  }
  return { phase: "idle" };
}
