import type { BrokenRule } from "~/server/lab/schemas";
import type { SwitchChange } from "./switches";

/** What turning a rule's switch on sets: pitfall mode, that rule alone broken, and the fault that shows it. */
export function breakingRule(rule: BrokenRule): SwitchChange {
  const fault = RULE_FAULTS[rule];
  return { shop: { pitfallMode: true, brokenRule: rule, ...fault.shop }, provider: fault.provider };
}

/** The keys-per-try pitfall: the naive client, with one lost reply to retry after. */
export const NAIVE_CLIENT_SETTING: SwitchChange = { shop: { naiveClient: true, dropReplies: 1 } };

const RULE_FAULTS: Record<BrokenRule, SwitchChange> = {
  "partial-commit": { shop: { failuresAfterWrite: 1 } },
  "memory-store": { shop: { dropReplies: 1 } },
  "cached-error": { provider: { unavailable: 1 } },
  "unbounded-wait": { shop: { stuckExecutions: 1 } },
};
