"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "~/app/_trpc/provider";

type Switches = {
  dropReplies: number;
  failuresBeforeCommit: number;
  stallsBeforeCommit: number;
  ledgerDelayMs: number;
  decline: boolean;
  naiveClient: boolean;
};

const SLOW_LEDGER_MS = 3_000;

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
    help: "The next charge commits, then its reply is lost on the way back. Left without an answer, the client retries with the same key.",
    isOn: (s) => s.dropReplies > 0,
    turn: (s, on) => ({ ...s, dropReplies: on ? 1 : 0 }),
  },
  {
    id: "fail-before-commit",
    label: "Fail before commit",
    help: "The next attempt fails before anything is written. The key is released and the retry charges once.",
    isOn: (s) => s.failuresBeforeCommit > 0,
    turn: (s, on) => ({ ...s, failuresBeforeCommit: on ? 1 : 0 }),
  },
  {
    id: "stall-before-commit",
    label: "Stall before commit (4 s)",
    help: "The next charge writes the ledger, then holds its transaction open for 4 s: kill the server now, and nothing of it remains.",
    isOn: (s) => s.stallsBeforeCommit > 0,
    turn: (s, on) => ({ ...s, stallsBeforeCommit: on ? 1 : 0 }),
  },
  {
    id: "slow-ledger",
    label: "Slow ledger (3 s)",
    help: "Every charge takes 3 seconds: a double-click or a second tab waits for the first and shares its charge.",
    isOn: (s) => s.ledgerDelayMs > 0,
    turn: (s, on) => ({ ...s, ledgerDelayMs: on ? SLOW_LEDGER_MS : 0 }),
  },
  {
    id: "decline",
    label: "Decline the card",
    help: "The card network declines (a final answer): retries replay the decline, and nothing is charged.",
    isOn: (s) => s.decline,
    turn: (s, on) => ({ ...s, decline: on }),
  },
  {
    id: "naive-client",
    label: "Naive client (counter-example)",
    help: "Pay makes a new key for every attempt against a charge without run-once. With a lost reply, it pays twice.",
    isOn: (s) => s.naiveClient,
    turn: (s, on) => ({ ...s, naiveClient: on }),
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
  const trpc = useTRPC();
  const client = useTRPCClient();
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
                    update.mutate({ orderId: order.id, switches: next });
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
