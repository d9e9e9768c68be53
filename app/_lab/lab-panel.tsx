"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useEffect, useState } from "react";
import { useHydrated } from "~/app/_lib/use-hydrated";
import type { PaymentView } from "~/app/_components/order-payment";
import { useLabTRPC, useLabTRPCClient } from "~/app/_trpc/provider";
import type { Attempt } from "~/app/_trpc/attempt-log";
import { GridControls } from "./grid-controls";
import { lastUsedKey } from "./last-used-key";
import { PitfallSwitches } from "./pitfall-switches";
import { QUEUE_TOGGLES } from "./queue-switches";
import { ScenarioPicker } from "./scenario-picker";
import { switchesFor } from "./scenarios";
import type { Scenario } from "./scenarios";
import { SLOW_PROVIDER_MS } from "./slow-provider";
import { StallGuide } from "./stall-guide";
import { SwitchRow } from "./switch-row";
import { ONE_SHOTS, changed, countOf, oneShotToggle } from "./switches";
import type { OneShot, Switches, Toggle } from "./switches";
import { useScenario } from "./use-scenario";

const TOGGLES: Array<Toggle & { help: string }> = [
  {
    id: "drop-reply",
    label: "Drop the reply after commit",
    help: "The charge commits, then its reply to the browser is lost. Left without an answer, the browser retries with the same key.",
    ...oneShotToggle("shop.dropReplies"),
  },
  {
    id: "fail-before-commit",
    label: "Fail before commit",
    help: "The attempt fails before the provider is called. The key is released and the retry charges once.",
    ...oneShotToggle("shop.failuresBeforeCommit"),
  },
  {
    id: "stall-between-hops",
    label: "Stall between the hops (4 s)",
    help: "The provider charges, then the shop waits 4 s before recording it: kill the server then. The retry re-asks the provider with the same key and records its one charge.",
    ...oneShotToggle("shop.stallsBetweenHops"),
  },
  {
    id: "slow-provider",
    label: "Slow provider (3 s)",
    help: "Every charge takes 3 seconds at the provider: a double-click or a second tab waits for the first and shares its charge.",
    isOn: (s) => s.provider.delayMs > 0,
    turn: (on) => ({ provider: { delayMs: on ? SLOW_PROVIDER_MS : 0 } }),
  },
  {
    id: "provider-drop-reply",
    label: "The provider's reply is lost",
    help: "The provider charges, then its reply to the shop is lost. The shop retries with the same provider key and gets the stored charge.",
    ...oneShotToggle("provider.dropReplies"),
  },
  {
    id: "provider-timeout",
    label: "Provider slow past the shop's timeout",
    help: "The provider holds the charge past the shop's per-attempt timeout. The shop retries with the same provider key, waits, and gets the one charge.",
    ...oneShotToggle("provider.timeouts"),
  },
  {
    id: "provider-unavailable",
    label: "Provider unavailable (503)",
    help: "The provider answers 503 before doing anything; the shop retries, and charges once.",
    ...oneShotToggle("provider.unavailable"),
  },
  {
    id: "decline",
    label: "Decline the card",
    help: "The provider declines (a final answer): retries replay the decline, and nothing is charged.",
    isOn: (s) => s.provider.decline,
    turn: (on) => ({ provider: { decline: on } }),
  },
  {
    id: "naive-client",
    label: "Naive client (counter-example)",
    help: "Pay makes a new key for every attempt against a charge without run-once. With a lost reply, it pays twice.",
    isOn: (s) => s.shop.naiveClient,
    turn: (on) => ({ shop: { naiveClient: on } }),
  },
  {
    id: "naive-provider-calls",
    label: "Naive provider calls (counter-example)",
    help: "The shop calls the provider with a new key per attempt. With a lost provider reply, the provider charges twice, and the ledger's reconciliation flags it.",
    isOn: (s) => s.shop.naiveProviderCalls,
    turn: (on) => ({ shop: { naiveProviderCalls: on } }),
  },
  ...QUEUE_TOGGLES,
];

/** A pitfall scenario works through the pitfall switches. */
const isPitfall = (scenario: Scenario) => scenario.switches.shop?.pitfallMode === true;

/** Demo controls: per-order switches the server honours; absent in production unless LAB_ENABLED=1. */
export function LabPanel({
  order,
  attempts,
  paying,
  behindProxy,
}: PaymentView & {
  /** Whether the demo's round-robin proxy spreads this page's requests over several instances. */
  behindProxy: boolean;
}) {
  const trpc = useLabTRPC();
  const client = useLabTRPCClient();
  const queryClient = useQueryClient();
  // A click before React runs would be lost (then put back): the switches wait for it.
  const hydrated = useHydrated();
  // A chosen scenario shows its own switches, and its stall guide stands in for the one under its switch.
  const [chosen] = useScenario();
  // The receipt worker spends its switches on its own time, after the payment: the queue's lesson reads them again.
  const switches = useQuery(
    trpc.lab.switches.queryOptions({ orderId: order.id }, { refetchInterval: chosen?.queue ? 1_500 : false }),
  );
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
    }),
  );

  const spent = useSpentSwitches(order.id, switches.data, attempts);

  const current = asked ?? switches.data;
  const turn = (next: Switches) => {
    setAsked(next);
    spent.userSet(next);
    // Only this click's answer ends its display: an earlier click's, settling later, would put this switch back.
    update.mutate(
      { orderId: order.id, ...next },
      { onSettled: () => setAsked((shown) => (shown === next ? null : shown)) },
    );
  };

  // The switches the chosen scenario sets: its own, shown with it even once spent.
  const ownToggles =
    chosen && current
      ? TOGGLES.filter((t) => t.isOn(switchesFor(chosen, current)) || chosen.alsoShows?.includes(t.id))
      : [];
  const switchRows = (toggles: typeof TOGGLES) =>
    current &&
    toggles.map((toggle) => {
      const on = toggle.isOn(current);
      return (
        <SwitchRow
          key={toggle.id}
          toggle={toggle}
          help={toggle.help}
          on={on}
          spentOn={toggle.oneShot && spent.on[toggle.oneShot]}
          disabled={paying || !hydrated}
          onTurn={(checked) => turn(changed(current, toggle.turn(checked)))}
        >
          {toggle.oneShot === "shop.stallsBetweenHops" && on && chosen?.help !== "stall-guide" && (
            <StallGuide orderId={order.id} attempts={attempts} behindProxy={behindProxy} />
          )}
        </SwitchRow>
      );
    });
  const pitfallSwitches = (shown: Switches) => (
    <PitfallSwitches
      switches={shown}
      spentOn={spent.on}
      turn={turn}
      disabled={paying || !hydrated}
      behindProxy={behindProxy}
    />
  );

  const keyReuse = <KeyReuse order={order} disabled={paying || !hydrated} client={client} />;

  return (
    <section className="card lab" aria-labelledby="lab-heading" data-testid="lab-panel">
      <h2 id="lab-heading">
        Fault lab <span className="badge">demo controls</span>
      </h2>
      <p className="muted small">Switches for this order only, honoured by the server.</p>
      <ScenarioPicker {...{ order, attempts, paying, behindProxy, turn }} switches={current ?? undefined} />
      {ownToggles.length > 0 && <ul className="lab-switches">{switchRows(ownToggles)}</ul>}
      {current && chosen && isPitfall(chosen) && pitfallSwitches(current)}
      {chosen?.id === "key-reuse" && keyReuse}
      <details className="all-switches" data-testid="all-switches">
        <summary>All switches</summary>
        {current && (
          <ul className="lab-switches">{switchRows(TOGGLES.filter((t) => !ownToggles.includes(t)))}</ul>
        )}
        {current && !(chosen && isPitfall(chosen)) && pitfallSwitches(current)}
        {chosen?.id !== "key-reuse" && keyReuse}
        <GridControls order={order} />
      </details>
    </section>
  );
}

interface SpentState {
  /** Switches known to be armed and not yet seen spent. */
  armed: ReadonlySet<OneShot>;
  /** The attempt that spent each switch, until it is armed again. */
  on: Partial<Record<OneShot, number>>;
}

/** Which attempt spent each one-shot switch: the switches are read again whenever an attempt ends. */
function useSpentSwitches(orderId: string, switches: Switches | undefined, attempts: readonly Attempt[]) {
  const trpc = useLabTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<SpentState>(() => ({ armed: armedIn(switches), on: {} }));
  const lastEnded = attempts.filter((attempt) => attempt.endedAt !== null).at(-1)?.number;

  useEffect(() => {
    if (lastEnded === undefined) return;
    queryClient
      .fetchQuery({ ...trpc.lab.switches.queryOptions({ orderId }), staleTime: 0 })
      .then((fresh) =>
        setState(({ armed, on }) => {
          const spent = [...armed].filter((name) => countOf(fresh, name) === 0);
          if (spent.length === 0) return { armed, on };
          return {
            armed: new Set([...armed].filter((name) => !spent.includes(name))),
            on: { ...on, ...Object.fromEntries(spent.map((name) => [name, lastEnded])) },
          };
        }),
      )
      // A failed read changes nothing: the next attempt's end reads again.
      .catch(() => undefined);
  }, [lastEnded, orderId, queryClient, trpc]);

  return {
    on: state.on,
    /** The user's own change: what it arms is armed, and a switch armed again forgets its last spending. */
    userSet(next: Switches) {
      const armed = armedIn(next);
      setState(({ on }) => ({
        armed,
        on: Object.fromEntries(Object.entries(on).filter(([name]) => !armed.has(name as OneShot))),
      }));
    },
  };
}

function armedIn(switches: Switches | undefined): ReadonlySet<OneShot> {
  return new Set(ONE_SHOTS.filter((name) => switches !== undefined && countOf(switches, name) > 0));
}

/** The lab's 422: the order's last used key, sent with another amount. */
function KeyReuse({
  order,
  disabled,
  client,
}: {
  order: PaymentView["order"];
  disabled: boolean;
  client: ReturnType<typeof useLabTRPCClient>;
}) {
  const [answer, setAnswer] = useState<string | null>(null);
  const reusableKey = lastUsedKey(order);
  const reuse = useMutation({
    mutationFn: (idempotencyKey: string) =>
      client.payments.charge.mutate({
        orderId: order.id,
        amountCents: order.totalCents + 100,
        idempotencyKey,
      }),
    onSuccess: () => setAnswer("The server accepted it. That would be a bug."),
    onError: (error) => {
      const status =
        error instanceof TRPCClientError ? (error.data as { httpStatus?: number })?.httpStatus : null;
      setAnswer(
        status === 422
          ? `Rejected with 422: ${error.message} One key names one operation; a changed amount is a different operation and needs a new key.`
          : `Rejected${status ? ` with ${status}` : ""}: ${error.message}`,
      );
    },
  });
  return (
    <div className="key-reuse">
      <button
        type="button"
        className="secondary"
        disabled={disabled || reuse.isPending || !reusableKey}
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
      {answer && (
        <p role="status" className="small" data-testid="reuse-answer">
          {answer}
        </p>
      )}
    </div>
  );
}
