import { QUEUE_TOGGLES } from "./queue-switches";
import { SLOW_PROVIDER_MS, WEBHOOK_FIRST_HOLD_MS } from "./slow-provider";
import { oneShotToggle, settingToggle } from "./switches";
import type { Toggle } from "./switches";

/** The lab's faults at the shop, at the provider and in the queue, each a checkbox with its help. */
export const FAULT_TOGGLES: ReadonlyArray<Toggle & { help: string }> = [
  {
    id: "drop-reply",
    label: "Drop the reply after commit",
    help: "The charge commits, then its reply to the browser is lost. Left without an answer, the browser retries with the same key.",
    ...oneShotToggle("shop.dropReplies"),
  },
  {
    id: "fail-before-commit",
    label: "Fail before commit",
    help: "The try fails before the provider is called. The key is released and the retry charges once.",
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
    ...settingToggle("provider.delayMs", SLOW_PROVIDER_MS),
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
    help: "The provider holds the charge past the shop's per-try timeout. The shop retries with the same provider key, waits, and gets the one charge.",
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
    ...settingToggle("provider.decline", true),
  },
  {
    id: "webhook-twice",
    label: "Webhook delivered twice",
    help: "The provider delivers the payment's event to the shop's webhook a second time, seconds after the first was answered: the shop answers it from the event's stored key and records nothing more.",
    ...settingToggle("provider.webhookTwice", true),
  },
  {
    id: "webhook-first",
    label: "Provider replies after its webhook (3 s)",
    help: "The provider charges, sends its webhook, and holds its reply to the shop for 3 s: the webhook finds the payment's key held by the request in flight, waits, and shares its record.",
    ...settingToggle("provider.holdReplyMs", WEBHOOK_FIRST_HOLD_MS),
  },
  {
    id: "shop-down",
    label: "The shop is down",
    help: "For this order the provider's answers to the shop's charges are lost, and the shop's webhook answers its events with 503: only the catch-up, which lists the provider's undelivered events, can record the payment.",
    ...settingToggle("shop.shopDown", true),
  },
  {
    id: "naive-client",
    label: "Naive client (counter-example)",
    help: "Pay makes a new key for every try against a charge without run-once. With a lost reply, it pays twice.",
    ...settingToggle("shop.naiveClient", true),
  },
  {
    id: "naive-provider-calls",
    label: "Naive provider calls (counter-example)",
    help: "The shop calls the provider with a new key per try. With a lost provider reply, the provider charges twice, and the ledger's reconciliation flags it.",
    ...settingToggle("shop.naiveProviderCalls", true),
  },
  ...QUEUE_TOGGLES,
];
