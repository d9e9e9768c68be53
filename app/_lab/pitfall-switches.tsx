"use client";

import { enforcingLineHref } from "~/server/lab/pitfalls/enforcing-lines";
import type { PitfallId } from "~/server/lab/pitfalls/enforcing-lines";
import { NAIVE_CLIENT_SETTING, breakingRule } from "./pitfall-faults";
import { SwitchRow } from "./switch-row";
import { changed, oneShotToggle } from "./switches";
import type { OneShot, Switches, Toggle } from "./switches";

/** A switch of the pitfalls: the scene's, or one that breaks a rule (`pitfall`). */
export interface PitfallToggle extends Toggle {
  pitfall?: PitfallId;
  /** Two sentences: the rule it breaks, and what the ledger then shows. */
  help: string;
}

/** Turning a rule's switch on puts the order in pitfall mode, breaks that rule alone and arms its fault. */
const breaking = (pitfall: Exclude<PitfallId, "keys-per-try">) => ({
  id: `pitfall-${pitfall}`,
  pitfall,
  isOn: (s: Switches) => s.shop.pitfallMode && s.shop.brokenRule === pitfall,
  turn: (on: boolean) => (on ? breakingRule(pitfall) : { shop: { brokenRule: null } }),
});

const PITFALLS: PitfallToggle[] = [
  {
    label: "Break: release the key after a partial commit",
    help: "Breaks the rule that the key is completed in the side effect's own transaction: the charge is written apart, and publishing its event then fails once, which releases the key. The retry charges again.",
    ...breaking("partial-commit"),
  },
  {
    label: "Break: keys in each instance's memory",
    help: "Breaks the rule that beyond one process keys live in a shared store with an atomic insert: each instance keeps them in a Map of its own. The reply is lost once, the retry reaches the other instance, and it charges again.",
    ...breaking("memory-store"),
  },
  {
    id: "pitfall-keys-per-try",
    pitfall: "keys-per-try",
    label: "Break: a new key per try",
    help: "Breaks the rule that the key is made with the intent (the order) and sent on every try: this is the naive client, against a charge without run-once. The reply is lost once, and the retry is a new payment.",
    isOn: (s) => s.shop.naiveClient,
    turn: (on) => (on ? NAIVE_CLIENT_SETTING : { shop: { naiveClient: false } }),
  },
  {
    label: "Break: cache error responses forever",
    help: "Breaks the rule that only final outcomes are stored: every error is, the provider's one transient 503 too. Every retry replays that failure, though the card is fine, and nothing is charged.",
    ...breaking("cached-error"),
  },
  {
    label: "Break: duplicates wait without a bound",
    help: "Breaks the rule that a duplicate waits at most a bound (5 s), then gets 409 with Retry-After: it waits as long as the execution it found. The first execution is stuck for 20 s, and a duplicate sent meanwhile (a double-click) gets no answer until it ends.",
    ...breaking("unbounded-wait"),
  },
];

/** The pitfall mode itself, and the faults that only its charge honours: the cure, with the same faults. */
const SCENE: PitfallToggle[] = [
  {
    id: "pitfall-mode",
    label: "Pitfall mode: only the key guards",
    help: "Pay runs the lab's pitfall charge: the shop's charge with its other guards off. The provider gets a new key per execution, a paid order is charged again, and the page's own per-try timeout is off, so only the server's run-once rules stand between a retry and a second charge. With no rule broken, they hold.",
    isOn: (s) => s.shop.pitfallMode,
    turn: (on) => ({ shop: on ? { pitfallMode: true } : { pitfallMode: false, brokenRule: null } }),
  },
  {
    id: "pitfall-fail-after-write",
    label: "Fail after the write (publishing an event)",
    help: "Pitfall mode only: the next execution writes its charge, then fails to publish its event.",
    ...oneShotToggle("shop.failuresAfterWrite"),
  },
  {
    id: "pitfall-stuck-execution",
    label: "Stuck execution (20 s)",
    help: "Pitfall mode only: the next execution holds its key for 20 s before it calls the provider.",
    ...oneShotToggle("shop.stuckExecutions"),
  },
];

/** Every switch of the guide's pitfalls: the scene, then one per rule. */
export const PITFALL_TOGGLES: readonly PitfallToggle[] = [...SCENE, ...PITFALLS];

interface RowProps {
  switches: Switches;
  /** The try that spent each one-shot fault, until it is armed again. */
  spentOn: Partial<Record<OneShot, number>>;
  turn: (next: Switches) => void;
  disabled: boolean;
  behindProxy: boolean;
  /** In a chosen scenario's panel: its label and state, and the line that enforces its rule, without the help. */
  brief?: boolean;
}

/** One pitfall switch, beside the shop's line that keeps its rule. */
export function PitfallRow({
  toggle,
  switches,
  spentOn,
  turn,
  disabled,
  behindProxy,
  brief = false,
}: RowProps & { toggle: PitfallToggle }) {
  const enforcing = toggle.pitfall && (
    <a href={enforcingLineHref(toggle.pitfall)} data-testid={`${toggle.id}-enforcing`}>
      The line that enforces it.
    </a>
  );
  return (
    <SwitchRow
      toggle={toggle}
      help={
        brief ? (
          enforcing
        ) : (
          <>
            {toggle.help} {enforcing}
          </>
        )
      }
      on={toggle.isOn(switches)}
      spentOn={toggle.oneShot && spentOn[toggle.oneShot]}
      disabled={disabled}
      onTurn={(on) => turn(changed(switches, toggle.turn(on)))}
    >
      {toggle.pitfall === "memory-store" && !behindProxy && (
        <p className="alert warning small" data-testid="pitfall-needs-instances">
          One instance serves this page: the retry will find the key in its Map. For two:{" "}
          <code>INSTANCES=2 npm run demo</code>.
        </p>
      )}
    </SwitchRow>
  );
}

/** The guide's pitfalls, each a switch that breaks its rule alone (those not already shown with a scenario). */
export function PitfallSwitches({ toggles, ...row }: RowProps & { toggles: readonly PitfallToggle[] }) {
  return (
    <div className="pitfalls" role="group" aria-labelledby="pitfalls-heading" data-testid="pitfalls">
      <h3 id="pitfalls-heading">Pitfalls of the guide</h3>
      <ul className="lab-switches">
        {toggles.map((toggle) => (
          <PitfallRow key={toggle.id} toggle={toggle} {...row} />
        ))}
      </ul>
    </div>
  );
}
