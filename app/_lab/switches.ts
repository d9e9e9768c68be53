import type { inferRouterOutputs } from "@trpc/server";
import { PROVIDER_ONE_SHOTS } from "service-kit/lab/provider-one-shots";
import type { LabAppRouter } from "~/server/compose-lab";

/** An order's lab switches, as the server holds them: the shop's and the provider's. */
export type Switches = inferRouterOutputs<LabAppRouter>["lab"]["switches"];

/** Some switches to set; the others keep their value. */
export interface SwitchChange {
  shop?: Partial<Switches["shop"]>;
  provider?: Partial<Switches["provider"]>;
}

export function changed(switches: Switches, change: SwitchChange): Switches {
  return {
    shop: { ...switches.shop, ...change.shop },
    provider: { ...switches.provider, ...change.provider },
  };
}

/** The switches each try spends one unit of, at the shop or at the provider. */
export const ONE_SHOTS = [
  "shop.dropReplies",
  "shop.failuresBeforeCommit",
  "shop.stallsBetweenHops",
  "shop.failuresAfterWrite",
  "shop.stuckExecutions",
  ...PROVIDER_ONE_SHOTS.map((name) => `provider.${name}` as const),
] as const;
export type OneShot = (typeof ONE_SHOTS)[number];
type Setting = `shop.${keyof Switches["shop"]}` | `provider.${keyof Switches["provider"]}`;

/** How many tries a one-shot switch is still armed for. */
export function countOf(switches: Switches, oneShot: OneShot): number {
  const [side, name] = oneShot.split(".") as ["shop" | "provider", string];
  return (switches[side] as Record<string, number | boolean>)[name] as number;
}

/** A checkbox of the lab: what it is called, whether it is on, and what turning it sets. */
export interface Toggle {
  id: string;
  label: string;
  isOn: (switches: Switches) => boolean;
  turn: (on: boolean) => SwitchChange;
  /** The fault it arms for one try, whose state (armed, spent) it shows. */
  oneShot?: OneShot;
}

/** A checkbox for one switch: on sets it to `armed` (a count of 1, a flag, a latency), off to 0 or false. */
export function settingToggle(setting: Setting, armed: number | true): Pick<Toggle, "isOn" | "turn"> {
  const [side, name] = setting.split(".") as ["shop" | "provider", string];
  return {
    isOn: (switches) => Boolean((switches[side] as Record<string, unknown>)[name]),
    turn: (on) => ({ [side]: { [name]: on ? armed : armed === true ? false : 0 } }),
  };
}

/** A one-shot switch's checkbox: on arms it for the next try, off disarms it. */
export function oneShotToggle(oneShot: OneShot): Pick<Toggle, "isOn" | "turn" | "oneShot"> {
  return { oneShot, ...settingToggle(oneShot, 1) };
}
