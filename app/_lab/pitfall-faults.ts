import type { inferRouterOutputs } from "@trpc/server";
import type { BrokenRule } from "~/server/lab/pitfalls/broken-rule";
import type { LabAppRouter } from "~/server/trpc/served-router";

type Switches = inferRouterOutputs<LabAppRouter>["lab"]["switches"];

interface PitfallSetting {
  shop: Partial<Switches["shop"]>;
  provider?: Partial<Switches["provider"]>;
}

/** What turning a rule's switch on sets: pitfall mode, that rule alone broken, and the fault that shows it. */
export function breakingRule(rule: BrokenRule): PitfallSetting {
  const fault = RULE_FAULTS[rule];
  return { shop: { pitfallMode: true, brokenRule: rule, ...fault.shop }, provider: fault.provider };
}

/** The keys-per-attempt pitfall: the naive client, with one lost reply to retry after. */
export const NAIVE_CLIENT_SETTING: PitfallSetting = { shop: { naiveClient: true, dropReplies: 1 } };

const RULE_FAULTS: Record<
  BrokenRule,
  { shop?: PitfallSetting["shop"]; provider?: PitfallSetting["provider"] }
> = {
  "partial-commit": { shop: { failuresAfterWrite: 1 } },
  "memory-store": { shop: { dropReplies: 1 } },
  "cached-error": { provider: { unavailable: 1 } },
  "unbounded-wait": { shop: { stuckExecutions: 1 } },
};
