import type { inferRouterOutputs } from "@trpc/server";
import type { LabAppRouter } from "~/server/trpc/served-router";

type Switches = inferRouterOutputs<LabAppRouter>["lab"]["switches"];

/** The switches each attempt spends one unit of, at the shop or at the provider. */
export const ONE_SHOTS = [
  "shop.dropReplies",
  "shop.failuresBeforeCommit",
  "shop.stallsBetweenHops",
  "shop.failuresAfterWrite",
  "shop.stuckExecutions",
  "provider.dropReplies",
  "provider.unavailable",
  "provider.timeouts",
] as const;
export type OneShot = (typeof ONE_SHOTS)[number];

/** How many attempts a one-shot switch is still armed for. */
export function countOf(switches: Switches, oneShot: OneShot): number {
  const [side, name] = oneShot.split(".") as ["shop" | "provider", string];
  return (switches[side] as Record<string, number | boolean>)[name] as number;
}
