"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import { useLabTRPC, useLabTRPCClient } from "~/app/_trpc/provider";
import type { LabAppRouter } from "~/server/trpc/served-router";

type Switches = inferRouterOutputs<LabAppRouter>["lab"]["switches"];

const SLOW_PROVIDER_MS = 3_000;

const TOGGLES: Array<{
  id: string;
  label: string;
  help: string;
  isOn: (s: Switches) => boolean;
  turn: (s: Switches, on: boolean) => Switches;
}> = [
  {
    id: "drop-reply",
    label: "Drop the reply after commit",
    help: "The next charge commits, then its reply is lost on the way back to the browser. Left without an answer, the browser retries with the same key.",
    isOn: (s) => s.shop.dropReplies > 0,
    turn: (s, on) => ({ ...s, shop: { ...s.shop, dropReplies: on ? 1 : 0 } }),
  },
  {
    id: "fail-before-commit",
    label: "Fail before commit",
    help: "The next attempt fails before the provider is called. The key is released and the retry charges once.",
    isOn: (s) => s.shop.failuresBeforeCommit > 0,
    turn: (s, on) => ({ ...s, shop: { ...s.shop, failuresBeforeCommit: on ? 1 : 0 } }),
  },
  {
    id: "stall-between-hops",
    label: "Stall between the hops (4 s)",
    help: "The next charge gets the provider's charge, then waits 4 s before the shop records it: kill the server now. A retry re-drives the provider with the same key and records its one charge.",
    isOn: (s) => s.shop.stallsBetweenHops > 0,
    turn: (s, on) => ({ ...s, shop: { ...s.shop, stallsBetweenHops: on ? 1 : 0 } }),
  },
  {
    id: "slow-provider",
    label: "Slow provider (3 s)",
    help: "Every charge takes 3 seconds at the provider: a double-click or a second tab waits for the first and shares its charge.",
    isOn: (s) => s.provider.delayMs > 0,
    turn: (s, on) => ({ ...s, provider: { ...s.provider, delayMs: on ? SLOW_PROVIDER_MS : 0 } }),
  },
  {
    id: "provider-timeout",
    label: "Provider slow past the shop's timeout",
    help: "The provider holds the next charge past the shop's per-attempt timeout. The shop retries with the same provider key and gets the one charge.",
    isOn: (s) => s.provider.timeouts > 0,
    turn: (s, on) => ({ ...s, provider: { ...s.provider, timeouts: on ? 1 : 0 } }),
  },
  {
    id: "provider-drop-reply",
    label: "The provider's reply is lost",
    help: "The provider charges, then its reply to the shop is lost. The shop retries with the same provider key and gets the stored charge.",
    isOn: (s) => s.provider.dropReplies > 0,
    turn: (s, on) => ({ ...s, provider: { ...s.provider, dropReplies: on ? 1 : 0 } }),
  },
  {
    id: "provider-unavailable",
    label: "Provider unavailable (503)",
    help: "The provider answers the next charge with 503 before doing anything; the shop retries.",
    isOn: (s) => s.provider.unavailable > 0,
    turn: (s, on) => ({ ...s, provider: { ...s.provider, unavailable: on ? 1 : 0 } }),
  },
  {
    id: "decline",
    label: "Decline the card",
    help: "The provider declines (a final answer): retries replay the decline, and nothing is charged.",
    isOn: (s) => s.provider.decline,
    turn: (s, on) => ({ ...s, provider: { ...s.provider, decline: on } }),
  },
  {
    id: "naive-client",
    label: "Naive client (counter-example)",
    help: "Pay makes a new key for every attempt against a charge without run-once. With a lost reply, it pays twice.",
    isOn: (s) => s.shop.naiveClient,
    turn: (s, on) => ({ ...s, shop: { ...s.shop, naiveClient: on } }),
  },
  {
    id: "naive-provider-calls",
    label: "Naive provider calls (counter-example)",
    help: "The shop calls the provider with a new key per attempt. With a lost provider reply, the provider charges twice and the reconciliation flags it.",
    isOn: (s) => s.shop.naiveProviderCalls,
    turn: (s, on) => ({ ...s, shop: { ...s.shop, naiveProviderCalls: on } }),
  },
];

/**
 * Demo controls: per-order switches that the server honours, to watch every
 * failure mode of the guide being handled. Off by default; absent in
 * production unless LAB_ENABLED=1.
 */
export function LabPanel({
  order,
  reusableKey,
  disabled,
}: {
  order: { id: string; totalCents: number };
  /** The latest key the server has seen for this order; an unused key has nothing to be reused against. */
  reusableKey: string | undefined;
  disabled: boolean;
}) {
  const trpc = useLabTRPC();
  const client = useLabTRPCClient();
  const queryClient = useQueryClient();
  const switches = useQuery(trpc.lab.switches.queryOptions({ orderId: order.id }));
  const switchesKey = trpc.lab.switches.queryKey({ orderId: order.id });
  // The switches just asked for, shown until the server answers. Set in the click
  // itself: a controlled checkbox whose state changes later (a cache update is
  // delivered a tick later) is first put back by React, and flickers.
  const [asked, setAsked] = useState<Switches | null>(null);
  const update = useMutation(
    trpc.lab.setSwitches.mutationOptions({
      // A read of the switches still in flight would land after the answer and undo it.
      onMutate: () => queryClient.cancelQueries({ queryKey: switchesKey }),
      onSuccess: (data) => queryClient.setQueryData(switchesKey, data),
      onError: () => queryClient.invalidateQueries({ queryKey: switchesKey }),
      onSettled: () => setAsked(null),
    }),
  );
  const [reuseAnswer, setReuseAnswer] = useState<string | null>(null);
  const reuse = useMutation({
    mutationFn: (idempotencyKey: string) =>
      client.payments.charge.mutate({
        orderId: order.id,
        amountCents: order.totalCents + 100,
        idempotencyKey,
      }),
    onSuccess: () => setReuseAnswer("The server accepted it. That would be a bug."),
    onError: (error) => {
      const status =
        error instanceof TRPCClientError ? (error.data as { httpStatus?: number })?.httpStatus : null;
      setReuseAnswer(
        status === 422
          ? `Rejected with 422: ${error.message} One key names one operation; a changed amount is a different operation and needs a new key.`
          : `Rejected${status ? ` with ${status}` : ""}: ${error.message}`,
      );
    },
  });

  const current = asked ?? switches.data;
  return (
    <section className="card lab" aria-labelledby="lab-heading" data-testid="lab-panel">
      <h2 id="lab-heading">
        Fault lab <span className="badge">demo controls</span>
      </h2>
      <p className="muted small">
        Switches for this order only, honoured by the server. Use them to watch each failure being handled.
      </p>
      {current && (
        <ul className="lab-switches">
          {TOGGLES.map((toggle) => (
            <li key={toggle.id}>
              <label className="switch">
                <input
                  type="checkbox"
                  checked={toggle.isOn(current)}
                  disabled={disabled}
                  aria-describedby={`${toggle.id}-help`}
                  onChange={(event) => {
                    const next = toggle.turn(current, event.target.checked);
                    setAsked(next);
                    update.mutate({ orderId: order.id, ...next });
                  }}
                />
                {toggle.label}
              </label>
              <p id={`${toggle.id}-help`} className="muted small">
                {toggle.help}
              </p>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="secondary"
        disabled={reuse.isPending || !reusableKey}
        aria-describedby="reuse-help"
        onClick={() => reusableKey && reuse.mutate(reusableKey)}
      >
        Reuse this order&apos;s key with a different amount
      </button>
      <p id="reuse-help" className="muted small">
        {reusableKey
          ? "Sends the last key the server saw for this order, with $1.00 more."
          : "Pay first: a key can only be reused once the server has seen it. Until then a wrong amount is simply refused (400), and the key stays free."}
      </p>
      {reuseAnswer && (
        <p role="status" className="small" data-testid="reuse-answer">
          {reuseAnswer}
        </p>
      )}
    </section>
  );
}
