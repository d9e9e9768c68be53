"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useHydrated } from "~/app/_lib/use-hydrated";
import { TEST_PAYMENT_METHOD } from "~/app/_lib/provider-payment-method";
import type { PaymentView } from "~/app/_components/order-payment";
import { useLabTRPC, useLabTRPCClient } from "~/app/_trpc/provider";
import type { TabTry } from "~/app/_trpc/try-log";
import { statusOf } from "~/app/_trpc/server-unreachable";
import { FAULT_TOGGLES } from "./fault-switches";
import { GridControls } from "./grid-controls";
import { lastUsedKey } from "./last-used-key";
import { PITFALL_TOGGLES, PitfallRow, PitfallSwitches } from "./pitfall-switches";
import { ScenarioPicker } from "./scenario-picker";
import { switchesFor } from "./scenarios";
import { StallGuide } from "./stall-guide";
import { SwitchRow } from "./switch-row";
import { ONE_SHOTS, changed, countOf } from "./switches";
import type { OneShot, Switches, Toggle } from "./switches";
import { useScenario } from "./use-scenario";

interface LabPanelProps extends PaymentView {
  /** Whether the demo's round-robin proxy spreads this page's requests over several instances. */
  behindProxy: boolean;
}

/** Demo controls: per-order switches the server honours; absent in production unless LAB_ENABLED=1. */
export function LabPanel({ order, tries, paying, behindProxy }: LabPanelProps) {
  const trpc = useLabTRPC();
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
  // Set in the click itself: a controlled checkbox whose state changes a tick later is first put back by React, and flickers.
  const [asked, setAsked] = useState<Switches | null>(null);
  const update = useMutation(
    trpc.lab.setSwitches.mutationOptions({
      // A read of the switches still in flight would land after the answer and undo it.
      onMutate: () => queryClient.cancelQueries({ queryKey: switchesKey }),
      onSuccess: (data) => queryClient.setQueryData(switchesKey, data),
      onError: () => queryClient.invalidateQueries({ queryKey: switchesKey }),
    }),
  );

  const spent = useSpentSwitches(order.id, switches.data, tries);

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

  // A chosen scenario's own switches sit in its panel; every other one waits under "All switches", with its help.
  const own = (toggle: Toggle) =>
    chosen !== null &&
    current !== undefined &&
    (toggle.isOn(switchesFor(chosen, current)) || chosen.alsoShows?.[toggle.id] !== undefined);
  const disabled = paying || !hydrated;
  const faultRow = (toggle: (typeof FAULT_TOGGLES)[number], brief: boolean, shown: Switches) => {
    const on = toggle.isOn(shown);
    return (
      <SwitchRow
        key={toggle.id}
        toggle={toggle}
        help={brief ? undefined : toggle.help}
        on={on}
        spentOn={toggle.oneShot && spent.on[toggle.oneShot]}
        disabled={disabled}
        onTurn={(checked) => turn(changed(shown, toggle.turn(checked)))}
      >
        {toggle.oneShot === "shop.stallsBetweenHops" && on && chosen?.help !== "stall-guide" && (
          <StallGuide orderId={order.id} tries={tries} behindProxy={behindProxy} />
        )}
      </SwitchRow>
    );
  };
  const pitfallRow = { spentOn: spent.on, turn, disabled, behindProxy };
  const ownFaults = FAULT_TOGGLES.filter(own);
  const ownPitfalls = PITFALL_TOGGLES.filter(own);
  const restOfPitfalls = PITFALL_TOGGLES.filter((toggle) => !own(toggle));
  const keyReuse = <KeyReuse order={order} disabled={disabled} />;

  return (
    <section className="card lab" aria-labelledby="lab-heading" data-testid="lab-panel">
      <h2 id="lab-heading">
        Fault lab <span className="badge">demo controls</span>
      </h2>
      {!chosen && <p className="muted small">Switches for this order only, honoured by the server.</p>}
      <ScenarioPicker {...{ order, tries, paying, behindProxy, turn }} switches={current ?? undefined}>
        {current && ownFaults.length + ownPitfalls.length > 0 && (
          <ul className="lab-switches" aria-label="The scenario's switches">
            {ownFaults.map((toggle) => faultRow(toggle, true, current))}
            {ownPitfalls.map((toggle) => (
              <PitfallRow key={toggle.id} toggle={toggle} switches={current} brief {...pitfallRow} />
            ))}
          </ul>
        )}
        {chosen?.id === "key-reuse" && keyReuse}
      </ScenarioPicker>
      <details className="all-switches" data-testid="all-switches">
        <summary>All switches</summary>
        {current && (
          <ul className="lab-switches">
            {FAULT_TOGGLES.filter((toggle) => !own(toggle)).map((toggle) => faultRow(toggle, false, current))}
          </ul>
        )}
        {current && restOfPitfalls.length > 0 && (
          <PitfallSwitches toggles={restOfPitfalls} switches={current} {...pitfallRow} />
        )}
        {chosen?.id !== "key-reuse" && keyReuse}
        <GridControls order={order} />
      </details>
    </section>
  );
}

interface SpentState {
  /** Switches known to be armed and not yet seen spent. */
  armed: ReadonlySet<OneShot>;
  /** The try that spent each switch, until it is armed again. */
  on: Partial<Record<OneShot, number>>;
}

/** Which try spent each one-shot switch: the switches are read again whenever a try ends. */
function useSpentSwitches(orderId: string, switches: Switches | undefined, tries: readonly TabTry[]) {
  const trpc = useLabTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<SpentState>(() => ({ armed: armedIn(switches), on: {} }));
  const lastEnded = tries.filter((tabTry) => tabTry.endedAt !== null).at(-1)?.number;

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
      // A failed read changes nothing: the next try's end reads again.
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
function KeyReuse({ order, disabled }: { order: PaymentView["order"]; disabled: boolean }) {
  const client = useLabTRPCClient();
  const [answer, setAnswer] = useState<string | null>(null);
  const reusableKey = lastUsedKey(order);
  const reuse = useMutation({
    mutationFn: (idempotencyKey: string) =>
      client.payments.charge.mutate({
        orderId: order.id,
        amountCents: order.totalCents + 100,
        idempotencyKey,
        paymentMethodId: TEST_PAYMENT_METHOD,
      }),
    onSuccess: () => setAnswer("The server accepted it. That would be a bug."),
    onError: (error) => {
      const status = statusOf(error);
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
