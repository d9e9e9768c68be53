"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { PaymentView } from "~/app/_components/order-payment";
import { useHydrated } from "~/app/_lib/use-hydrated";
import { useLabTRPC, useLabTRPCClient, useTRPC } from "~/app/_trpc/provider";
import { lastUsedKey } from "./last-used-key";
import { SLOW_PROVIDER_MS } from "./slow-provider";

/** The card the "same payload" sends: the test card the card form starts with. */
const SAME_CARD = "4242424242424242";
/** Another card the provider approves: a different body under the same key. */
const OTHER_CARD = "5555555555554444";

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
    mutationFn: (card: string) =>
      sendOnce({ orderId: order.id, amountCents: order.totalCents, idempotencyKey: key, cardNumber: card }),
    onSettled: (answer, error, card) => {
      const said = answer ?? `no answer: ${error?.message ?? "the request failed"}`;
      setAnswers((earlier) => [...earlier, `${card === SAME_CARD ? "Same" : "Different"} payload: ${said}`]);
      void refresh();
    },
  });
  // The in-progress row in one click: both requests leave at once, and the slow provider holds whichever
  // the server takes first for 3 s, so the other finds the key in progress (its body the same, or not).
  const inProgress = useMutation({
    mutationFn: async (secondCard: string) => {
      const switches = await labClient.lab.setSwitches.mutate({
        orderId: order.id,
        provider: { delayMs: SLOW_PROVIDER_MS },
      });
      queryClient.setQueryData(labTrpc.lab.switches.queryKey({ orderId: order.id }), switches);
      await Promise.allSettled([send.mutateAsync(SAME_CARD), send.mutateAsync(secondCard)]);
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
        Sends the key once, as curl would, no retry. Same payload: card 4242 4242 4242 4242; different: card
        5555 5555 5555 4444. In progress: the two &ldquo;In progress&rdquo; buttons turn on the slow provider
        and send two requests at once, the same body twice or both cards: the server holds the first it takes
        for 3 s, and the other finds the key in progress (on an order whose key is still unused). Expired: age
        the key, then send. Absent with a different payload: fail before commit, send, then send the other
        card.
      </p>
      <div className="grid-controls">
        {/* Not disabled while a request is out: the in-progress row needs a second request during the first. */}
        {button("Send the same payload", true, () => send.mutate(SAME_CARD))}
        {button("Send a different payload", true, () => send.mutate(OTHER_CARD))}
        {button("In progress × same payload", freshKey && !inProgress.isPending, () =>
          inProgress.mutate(SAME_CARD),
        )}
        {button("In progress × different payload", freshKey && !inProgress.isPending, () =>
          inProgress.mutate(OTHER_CARD),
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
