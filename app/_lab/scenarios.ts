import { NAIVE_CLIENT_SETTING, breakingRule } from "./pitfall-faults";
import { SLOW_PROVIDER_MS, WEBHOOK_FIRST_HOLD_MS } from "./slow-provider";
import { changed } from "./switches";
import type { SwitchChange, Switches } from "./switches";

type SwitchSide = Record<string, number | boolean | string | null>;

/** A guided run of one failure: what it sets, what to do, and what should happen. */
export interface Scenario {
  id: string;
  title: string;
  /** The switches it turns on; every other switch is turned off. */
  switches: SwitchChange;
  toDo: string;
  /** A part of the page that helps with it: a link to a second tab, or the stall's command and countdown. */
  help?: "second-tab" | "stall-guide" | "catch-up";
  /** Its lesson is how long a request waits: the panel clocks this tab's request against the server's bound. */
  waitClock?: true;
  /** The Pay button stays enabled while a payment is out, so that a person's double-click sends two requests. */
  unguardedPay?: true;
  /** Switches shown with it though it leaves them off (its variations, one click away), each with what it adds to "Should happen" once on. */
  alsoShows?: Readonly<Record<string, string>>;
  shouldHappen: string;
  /** Its lesson is the queue's: "What happened" also tells the receipt worker's account. */
  queue?: true;
  /** Its lesson is the webhook's: "What happened" also tells its deliveries. */
  webhook?: true;
}

/** Adding a scenario is adding an entry here. */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: "lost-reply",
    title: "Lost reply",
    switches: { shop: { dropReplies: 1 } },
    toDo: "Press Pay.",
    shouldHappen:
      "The charge commits and its reply is lost on the way back. The page retries with the same key and gets the stored result: one charge.",
  },
  {
    id: "double-click",
    title: "Double-click",
    switches: { provider: { delayMs: SLOW_PROVIDER_MS } },
    toDo: "Double-click Pay. Its own guard is off for this lesson, so both clicks send a request; the provider takes 3 s.",
    unguardedPay: true,
    shouldHappen:
      "Both requests carry the order's key: the second waits for the first and shares its charge (coalesced). One charge.",
  },
  {
    id: "two-tabs",
    title: "Two tabs",
    switches: { provider: { delayMs: SLOW_PROVIDER_MS } },
    toDo: "Open this order in a second tab, then press Pay in both tabs within 3 s (a tab that has already seen the payment follows it: nothing to press).",
    help: "second-tab",
    shouldHappen:
      "Both tabs send the order's key: the later request waits for the one in flight and shares its charge. One charge, shown in both tabs.",
  },
  {
    id: "crash-mid-charge",
    title: "Crash mid-charge",
    switches: { shop: { stallsBetweenHops: 1 } },
    toDo: "Press Pay, then kill the server within 4 s, while it holds the provider's charge unrecorded.",
    help: "stall-guide",
    shouldHappen:
      "Once the server is back, the page's retry (or Finish payment) takes the dead owner's key over, asks the provider again with the same key and records its one charge; left alone, the provider's webhook or the background completer does. One charge either way.",
  },
  {
    id: "slow-card",
    title: "Slow card",
    switches: { provider: { timeouts: 1 } },
    toDo: "Press Pay and wait: the card network answers after 9 s, past the shop's timeout and the browser's (8 s each).",
    shouldHappen:
      "The shop's call to the provider times out and is sent again with the same provider key. The browser's request times out too, and its retry with the order's key waits for the one in flight (or replays it). The provider charges once.",
  },
  {
    id: "webhook-twice",
    title: "A webhook delivered twice",
    switches: { provider: { webhookTwice: true } },
    toDo: "Press Pay, then watch What the provider's webhook told the shop: the payment's event arrives again a few seconds later.",
    webhook: true,
    shouldHappen:
      "The shop records the payment from the provider's reply. The event's first delivery runs once under the event's id and finds it recorded; the second gets that stored answer. One charge, recorded once.",
  },
  {
    id: "webhook-first",
    title: "Webhook before the reply",
    switches: { provider: { holdReplyMs: WEBHOOK_FIRST_HOLD_MS } },
    toDo: "Press Pay: the provider charges and holds its reply to the shop for 3 s, and its webhook arrives first.",
    webhook: true,
    shouldHappen:
      "The webhook finds the payment's key held by the request still waiting for the provider, waits for it and shares its record; the request records the charge. One charge, recorded once.",
  },
  {
    id: "webhook-endpoint-down",
    title: "Webhook endpoint down",
    switches: { shop: { shopDown: true } },
    toDo: "Press Pay: the provider charges, but the shop is down for this order. When the page stops retrying, press Run the catch-up now (it runs by itself every minute), then turn The shop is down off and wait for the provider's next try.",
    help: "catch-up",
    webhook: true,
    shouldHappen:
      "The page's retries, the completer and the webhook's deliveries (503) all fail. The catch-up lists the provider's undelivered event and records the payment under the event's key. Once the shop is up, the provider's next try runs under that key and replays the catch-up's answer. One charge, recorded once.",
  },
  {
    id: "decline-then-card",
    title: "Decline, then another card",
    switches: {},
    toDo: "Pick the test card Declined and press Pay: it is declined. Then pick Approved and press Pay with another card.",
    shouldHappen:
      "The decline is final for its key and charges nothing; the order stays payable under a new key, and the other card charges once.",
  },
  {
    id: "key-reuse",
    title: "Key reuse with another amount",
    switches: {},
    toDo: "Press Pay, then Reuse this order's key with a different amount.",
    shouldHappen:
      "The payment charges once. The same key with another amount is refused with 422: one key names one operation. Nothing more is charged.",
  },
  {
    id: "queue-redelivery",
    title: "A job redelivered by the queue",
    switches: { shop: { consumerDeathsBeforeAck: 1 } },
    alsoShows: {
      "relay-publishes-twice": "The second publication is replayed too: still one receipt.",
      "poison-message":
        "The poison message fails every delivery instead, and after its last allowed one the queue dead-letters it: no receipt.",
      "naive-consumer": "The naive consumer sends a receipt per delivery instead: two receipts, flagged.",
    },
    queue: true,
    toDo: "Press Pay, then watch What the queue did below, and the Ledger's mailbox.",
    shouldHappen:
      "The worker sends the receipt under the key receipt:<order> and dies before its ack; npm start starts it again, the queue redelivers (the embedded queue after 10 s), and the key replays it: one receipt.",
  },
  {
    id: "keys-per-try",
    title: "Pitfall: a new key per try",
    switches: NAIVE_CLIENT_SETTING,
    toDo: "Press Pay naively.",
    shouldHappen:
      "The first charge's reply is lost; the naive client retries with a key it just made, which nothing has seen: it charges again. Two charges, shown as damage.",
  },
  {
    id: "partial-commit",
    title: "Pitfall: partial commit",
    switches: breakingRule("partial-commit"),
    toDo: "Press Pay in pitfall mode.",
    shouldHappen:
      "The charge is written in a transaction of its own, then publishing its event fails: the key is released with the charge already written. The retry runs again and charges again. Two charges, shown as damage.",
  },
  {
    id: "memory-store",
    title: "Pitfall: keys in memory",
    switches: breakingRule("memory-store"),
    toDo: "Press Pay in pitfall mode.",
    shouldHappen:
      "The reply is lost once. On two instances the retry reaches the other, whose memory never saw the key: two charges; on one, one.",
  },
  {
    id: "cached-error",
    title: "Pitfall: cached errors",
    switches: breakingRule("cached-error"),
    toDo: "Press Pay in pitfall mode.",
    shouldHappen:
      "The provider answers one transient 503, and it is stored as the key's outcome: every retry replays the 503, though the card is fine. Nothing is charged, and the order stays unpaid under a key that can no longer pay it.",
  },
  {
    id: "unbounded-wait",
    title: "Pitfall: unbounded wait",
    switches: breakingRule("unbounded-wait"),
    toDo: "Double-click Pay in pitfall mode: the second click sends a duplicate while the first execution is stuck for 20 s.",
    unguardedPay: true,
    waitClock: true,
    shouldHappen:
      "The duplicate waits as long as the stuck execution: no 409 at the 5 s bound. The page's own 8 s timeout is off in pitfall mode.",
  },
];

/** Every switch off, whatever switches there are (the lab grows): a count to 0, a flag to false, a choice to none. */
function off<Side extends SwitchSide>(side: Side): Side {
  return Object.fromEntries(
    Object.entries(side).map(([name, value]) => [
      name,
      typeof value === "boolean" ? false : typeof value === "number" ? 0 : null,
    ]),
  ) as Side;
}

export function allOff(current: Switches): Switches {
  return { shop: off(current.shop), provider: off(current.provider) };
}

export function switchesFor(scenario: Scenario, current: Switches): Switches {
  return changed(allOff(current), scenario.switches);
}
