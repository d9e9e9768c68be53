"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import type { TRPCClient } from "@trpc/client";
import { useCallback, useEffect, useState } from "react";
import { AttemptLog } from "~/app/_trpc/attempt-log";
import type { Attempt, AttemptOutcome } from "~/app/_trpc/attempt-log";
import { describeFailure } from "~/app/_trpc/links";
import { useLabTRPC, useLabTRPCClient, useTRPC } from "~/app/_trpc/provider";
import { DEFAULT_RETRY_SETTINGS, isRetryable } from "~/app/_trpc/retry-policy";
import type { LabAppRouter } from "~/server/trpc/served-router";
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

const UNKNOWN_OUTCOMES: ReadonlySet<AttemptOutcome> = new Set<AttemptOutcome>([
  "in_flight",
  "interrupted",
  "network_error",
  "timed_out",
  "conflict",
  "unavailable",
]);

function parseAttempts(value: unknown): Attempt[] | null {
  return Array.isArray(value) ? (value as Attempt[]) : null;
}

/**
 * Pays an order with its persisted key. Every click, every retry and every
 * reload sends the same `order.paymentKey`; the links retry only unknown
 * outcomes. The attempt log is kept in the tab (sessionStorage), so after a
 * reload the page can tell that an attempt was under way.
 */
export function usePayment(order: PayableOrder, opts: { naive: boolean }) {
  const trpc = useTRPC();
  const labTrpc = useLabTRPC();
  const client = useLabTRPCClient();
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
      if (opts.naive) return payNaively(client, order, cardNumber, log);
      return client.payments.charge.mutate(
        { orderId: order.id, amountCents: order.totalCents, idempotencyKey: order.paymentKey, cardNumber },
        { context: { attempts: log } },
      );
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ orderId: order.id }) }),
        queryClient.invalidateQueries({ queryKey: trpc.ledger.pathKey() }),
        queryClient.invalidateQueries({ queryKey: labTrpc.lab.pathKey() }),
      ]),
  });

  const current = attempts.slice(runStart);
  return {
    state: paymentState(mutation, current),
    attempts,
    pay: (cardNumber: string) => mutation.mutate(cardNumber),
    /** The tab's last attempt never learned its outcome (a reload or a lost answer cut it off). */
    interrupted: !mutation.isPending && UNKNOWN_OUTCOMES.has(attempts.at(-1)?.outcome ?? "executed"),
  };
}

/**
 * The lab's counter-example; do not copy it. It makes a new key for every
 * attempt and calls a procedure without run-once, so a retry after a lost
 * reply is a second payment.
 */
async function payNaively(
  client: TRPCClient<LabAppRouter>,
  order: PayableOrder,
  cardNumber: string,
  log: AttemptLog,
) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.lab.naiveCharge.mutate(
        {
          orderId: order.id,
          amountCents: order.totalCents,
          attemptKey: `naive_${crypto.randomUUID()}`,
          cardNumber,
        },
        { context: { attempts: log, retries: false } },
      );
    } catch (error) {
      const retryable = error instanceof TRPCClientError && isRetryable(describeFailure(error));
      if (!retryable || attempt >= 3) throw error;
    }
  }
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
