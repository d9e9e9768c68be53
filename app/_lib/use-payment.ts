"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useCallback, useEffect, useState } from "react";
import { AttemptLog } from "~/app/_trpc/attempt-log";
import type { Attempt } from "~/app/_trpc/attempt-log";
import { useTRPC, useTRPCClient } from "~/app/_trpc/provider";
import { DEFAULT_RETRY_SETTINGS } from "~/app/_trpc/retry-policy";
import { readSessionItem, writeSessionItem } from "./session-storage";

export interface PayableOrder {
  id: string;
  totalCents: number;
  paymentKey: string;
}

export type PaymentState =
  | { phase: "idle" }
  | { phase: "processing"; attempt: number; maxAttempts: number }
  | { phase: "charged"; cardLast4: string; chargeId: string }
  | { phase: "declined"; message: string }
  | { phase: "failed"; message: string };

const attemptsKey = (orderId: string) => `payment.attempts.${orderId}`;

function parseAttempts(value: unknown): Attempt[] | null {
  return Array.isArray(value) ? (value as Attempt[]) : null;
}

/**
 * Pays an order with its persisted key. Every click, every retry and every
 * reload sends the same `order.paymentKey`; the links retry only unknown
 * outcomes. The attempt log is kept in the tab (sessionStorage), so after a
 * reload the page can tell that an attempt was under way.
 */
export function usePayment(order: PayableOrder) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [attempts, setAttempts] = useState<readonly Attempt[]>([]);
  // Index of the first attempt of the current click, for "attempt k of n".
  const [runStart, setRunStart] = useState(0);

  useEffect(() => {
    // The log lives in the tab; the server render has none.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setAttempts(readSessionItem(attemptsKey(order.id), parseAttempts) ?? []);
  }, [order.id]);

  const record = useCallback(
    (next: readonly Attempt[]) => {
      setAttempts(next);
      writeSessionItem(attemptsKey(order.id), next);
    },
    [order.id],
  );

  const mutation = useMutation({
    mutationFn: (cardNumber: string) => {
      const earlier = readSessionItem(attemptsKey(order.id), parseAttempts) ?? [];
      setRunStart(earlier.length);
      const log = new AttemptLog(record, earlier);
      return client.payments.charge.mutate(
        { orderId: order.id, amountCents: order.totalCents, idempotencyKey: order.paymentKey, cardNumber },
        { context: { attempts: log } },
      );
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ orderId: order.id }) }),
  });

  const inFlight = attempts.filter((attempt) => attempt.outcome === "in_flight").length > 0;
  const state = paymentState(mutation, attempts.slice(runStart));
  return {
    state,
    attempts,
    pay: (cardNumber: string) => mutation.mutate(cardNumber),
    /** A reload interrupted an attempt whose outcome this tab never learned. */
    interrupted: !mutation.isPending && inFlight,
  };
}

function paymentState(
  mutation: { status: string; data?: { cardLast4: string; chargeId: string }; error: unknown },
  attempts: readonly Attempt[],
): PaymentState {
  if (mutation.status === "pending") {
    return {
      phase: "processing",
      attempt: Math.max(1, attempts.length),
      maxAttempts: DEFAULT_RETRY_SETTINGS.maxAttempts,
    };
  }
  if (mutation.status === "success" && mutation.data) {
    return { phase: "charged", cardLast4: mutation.data.cardLast4, chargeId: mutation.data.chargeId };
  }
  if (mutation.status === "error") {
    const error = mutation.error;
    if (
      error instanceof TRPCClientError &&
      (error.data as { code?: string } | undefined)?.code === "PAYMENT_REQUIRED"
    ) {
      return { phase: "declined", message: error.message };
    }
    return { phase: "failed", message: error instanceof Error ? error.message : "The payment failed." };
  }
  return { phase: "idle" };
}
