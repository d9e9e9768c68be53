"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { PaymentView } from "~/app/_components/order-payment";
import { TEST_PAYMENT_METHOD } from "~/app/_lib/provider-payment-method";
import { useHydrated } from "~/app/_lib/use-hydrated";
import { useLabTRPC, useLabTRPCClient, useTRPC, useTRPCClient } from "~/app/_trpc/provider";
import { lastUsedKey } from "./last-used-key";
import { SLOW_PROVIDER_MS } from "./slow-provider";

type Payload = "same" | "different";

/** The different payload's extra cents: the amount is part of the request's fingerprint (the payment method is not). */
const OTHER_AMOUNT_EXTRA_CENTS = 100;

/** How often the in-progress presets look whether the first request holds the key yet. */
const KEY_POLL_MS = 100;

/** A request sent as curl would send it: once, with no retry, so that each lands in exactly one cell. */
async function sendOnce(body: Record<string, unknown>): Promise<string> {
  const response = await fetch("/api/trpc/payments.charge", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const decision = response.headers.get("Idempotency-Decision");
  return `HTTP ${response.status}${decision ? `, ${decision}` : ""}`;
}

/** Sends the order's key once (same or another body) and ages it: with the switches, every grid cell. */
export function GridControls({ order }: Pick<PaymentView, "order">) {
  const trpc = useTRPC();
  const labTrpc = useLabTRPC();
  const labClient = useLabTRPCClient();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  // A click before React runs would be lost: the buttons wait for it.
  const hydrated = useHydrated();
  const [answers, setAnswers] = useState<string[]>([]);
  // What a retry would carry: the key last used, or the order's current key before any.
  const key = lastUsedKey(order) ?? order.paymentKey;
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ orderId: order.id }) }),
      queryClient.invalidateQueries({ queryKey: trpc.orders.serverAccount.queryKey({ orderId: order.id }) }),
    ]);
  const send = useMutation({
    mutationFn: (payload: Payload) =>
      sendOnce({
        orderId: order.id,
        amountCents: order.totalCents + (payload === "same" ? 0 : OTHER_AMOUNT_EXTRA_CENTS),
        idempotencyKey: key,
        paymentMethodId: TEST_PAYMENT_METHOD,
      }),
    onSettled: (answer, error, payload) => {
      const said = answer ?? `no answer: ${error?.message ?? "the request failed"}`;
      setAnswers((earlier) => [...earlier, `${payload === "same" ? "Same" : "Different"} payload: ${said}`]);
      void refresh();
    },
  });
  // Resolves once the server holds the order's key: the first request's claim, before its slow provider call.
  const keyInProgress = async () => {
    for (const deadline = Date.now() + SLOW_PROVIDER_MS; Date.now() < deadline;) {
      const { paymentKeyState } = await client.orders.get.query({ orderId: order.id });
      if (paymentKeyState === "in_progress") return;
      await new Promise((resolve) => setTimeout(resolve, KEY_POLL_MS));
    }
    throw new Error("the first request did not hold the key in time");
  };
  // The slow provider holds the first request, so the second finds the key in progress; sent first, a changed amount is refused before the key is held.
  const inProgress = useMutation({
    mutationFn: async (second: Payload) => {
      const switches = await labClient.lab.setSwitches.mutate({
        orderId: order.id,
        provider: { delayMs: SLOW_PROVIDER_MS },
      });
      queryClient.setQueryData(labTrpc.lab.switches.queryKey({ orderId: order.id }), switches);
      const first = send.mutateAsync("same");
      await keyInProgress();
      await Promise.allSettled([first, send.mutateAsync(second)]);
    },
    onError: (error) => setAnswers((earlier) => [...earlier, `Slow provider not set: ${error.message}`]),
  });
  // The presets send the order's key: only an unpaid order's unused key runs long enough to be in progress.
  const freshKey =
    order.status === "PENDING" && order.paymentKeyState === "absent" && key === order.paymentKey;
  const age = useMutation(
    labTrpc.lab.ageKey.mutationOptions({
      onSuccess: () => setAnswers((earlier) => [...earlier, "Key aged past its retention."]),
      onError: (error) => setAnswers((earlier) => [...earlier, `Not aged: ${error.message}`]),
      onSettled: () => void refresh(),
    }),
  );
  const button = (label: string, enabled: boolean, onClick: () => void) => (
    <button type="button" className="secondary" disabled={!hydrated || !enabled} onClick={onClick}>
      {label}
    </button>
  );
  return (
    <div className="grid-controls-panel" data-testid="grid-controls">
      <h3>Reach any cell of the grid</h3>
      <p className="muted small">
        Sends the key once, as curl would, no retry, with Stripe&apos;s test payment method pm_card_visa. Same
        payload: the order&apos;s amount; different: $1.00 more (the amount is in the request&apos;s
        fingerprint, the payment method is not). In progress: the two &ldquo;In progress&rdquo; buttons turn
        on the slow provider, send the same payload, and once the server holds the key (3 s) send the same or
        the different one, which finds the key in progress (on an order whose key is still unused). Expired:
        age the key, then send. Absent with a different payload: send the different one (refused: not the
        order&apos;s amount, and the key is freed), then the same.
      </p>
      <div className="grid-controls">
        {/* Not disabled while a request is out: the in-progress row needs a second request during the first. */}
        {button("Send the same payload", true, () => send.mutate("same"))}
        {button("Send a different payload", true, () => send.mutate("different"))}
        {button("In progress × same payload", freshKey && !inProgress.isPending, () =>
          inProgress.mutate("same"),
        )}
        {button("In progress × different payload", freshKey && !inProgress.isPending, () =>
          inProgress.mutate("different"),
        )}
        {button("Age the key past its retention", !age.isPending, () => age.mutate({ orderId: order.id }))}
      </div>
      {answers.length > 0 && (
        <ol className="small" role="status" data-testid="grid-answers">
          {answers.map((answer, i) => (
            <li key={i}>{answer}</li>
          ))}
        </ol>
      )}
    </div>
  );
}
