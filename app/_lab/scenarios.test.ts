import { NO_PROVIDER_FAULTS } from "service-kit/lab/provider-faults";
import { expect, it } from "vitest";
import { SCENARIOS, allOff, switchesFor } from "./scenarios";

const scenario = (id: string) => {
  const found = SCENARIOS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no scenario ${id}`);
  return found;
};

/** Every switch on, and one the lab may grow later (a pitfall's), which the registry does not know. */
const allOn = {
  shop: {
    dropReplies: 2,
    failuresBeforeCommit: 1,
    stallsBetweenHops: 1,
    naiveClient: true,
    naiveProviderCalls: true,
    pitfallMode: true,
    brokenRule: "memory-store" as const,
    failuresAfterWrite: 1,
    stuckExecutions: 1,
    consumerDeathsBeforeAck: 1,
    relayDuplicates: 1,
    poisonMessage: true,
    naiveConsumer: true,
    shopDown: true,
    aSwitchAddedLater: true,
  },
  provider: {
    dropReplies: 1,
    unavailable: 1,
    timeouts: 1,
    delayMs: 3_000,
    decline: true,
    webhookTwice: true,
    holdReplyMs: 3_000,
  },
};

it("sets a scenario's switches and turns every other one off, even one added after it", () => {
  expect(switchesFor(scenario("lost-reply"), allOn)).toEqual({
    shop: {
      dropReplies: 1,
      failuresBeforeCommit: 0,
      stallsBetweenHops: 0,
      naiveClient: false,
      naiveProviderCalls: false,
      pitfallMode: false,
      brokenRule: null,
      failuresAfterWrite: 0,
      stuckExecutions: 0,
      consumerDeathsBeforeAck: 0,
      relayDuplicates: 0,
      poisonMessage: false,
      naiveConsumer: false,
      shopDown: false,
      aSwitchAddedLater: false,
    },
    provider: NO_PROVIDER_FAULTS,
  });
});

it("gives every scenario an id of its own", () => {
  expect(new Set(SCENARIOS.map((each) => each.id)).size).toBe(SCENARIOS.length);
});

it("sets a pitfall scenario's switches as the pitfall's own switch does", () => {
  expect(switchesFor(scenario("cached-error"), allOn)).toMatchObject({
    shop: { pitfallMode: true, brokenRule: "cached-error", dropReplies: 0, naiveClient: false },
    provider: { unavailable: 1, dropReplies: 0 },
  });
});

it("turns every switch off when the picker is cleared, one added later too", () => {
  const off = allOff(allOn);
  expect(Object.values(off.shop).every((value) => value === false || value === 0 || value === null)).toBe(
    true,
  );
  expect(off.provider).toEqual(NO_PROVIDER_FAULTS);
  expect(off.shop).toMatchObject({ pitfallMode: false, brokenRule: null, aSwitchAddedLater: false });
});
