import { expect, it } from "vitest";
import { z } from "zod";
import { allSwitchedOff, providerFaultsSchema } from "./provider-faults";

it("switches off every switch a schema declares: a count at 0, a flag false, a choice null", () => {
  const schema = z.object({ count: z.number().int(), flag: z.boolean(), choice: z.enum(["a"]).nullable() });
  expect(allSwitchedOff(schema)).toEqual({ count: 0, flag: false, choice: null });
  expect(providerFaultsSchema.parse(allSwitchedOff(providerFaultsSchema))).toEqual({
    dropReplies: 0,
    unavailable: 0,
    timeouts: 0,
    delayMs: 0,
    decline: false,
    webhookTwice: false,
    holdReplyMs: 0,
  });
});
