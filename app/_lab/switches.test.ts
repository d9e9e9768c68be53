import { expect, it } from "vitest";
import { allSwitchedOff, providerFaultsSchema } from "service-kit/lab/provider-faults";
import { shopSwitchesSchema } from "~/server/lab/schemas";
import { FAULT_TOGGLES } from "./fault-switches";
import { PITFALL_TOGGLES } from "./pitfall-switches";
import { changed } from "./switches";

const off = { shop: allSwitchedOff(shopSwitchesSchema), provider: allSwitchedOff(providerFaultsSchema) };

it.each([...FAULT_TOGGLES, ...PITFALL_TOGGLES].map((toggle) => [toggle.id, toggle] as const))(
  "%s: turned on it is on, turned off again every switch is back as it was",
  (_, toggle) => {
    const on = changed(off, toggle.turn(true));
    expect(toggle.isOn(on)).toBe(true);
    expect(labSchemaParse(on)).toEqual(on);
    const again = changed(on, toggle.turn(false));
    expect(toggle.isOn(again)).toBe(false);
    if (!toggle.id.startsWith("pitfall-")) expect(again).toEqual(off);
  },
);

function labSchemaParse(switches: typeof off) {
  return {
    shop: shopSwitchesSchema.parse(switches.shop),
    provider: providerFaultsSchema.parse(switches.provider),
  };
}
