import { describe, expect, test } from "vitest";
import { ENFORCING_LINES } from "./pitfalls/enforcing-lines";
import type { PitfallId } from "./pitfalls/enforcing-lines";
import { enforcingLineIn, readShownSource } from "./source-file";

/** What each link's line must be, read apart from its marker: the code that keeps the rule. */
const KEPT_BY: Record<PitfallId, RegExp> = {
  "partial-commit": /store\.complete\(.*\btx\)/,
  "memory-store": /ON CONFLICT .* DO NOTHING/,
  "keys-per-try": /paymentKey = newPaymentKey\(\)/,
  "cached-error": /isFinal: .*FINAL_CODES\.has/,
  "unbounded-wait": /withinWait\(.*settings\.waitMs\)/,
};

describe("the lab's links to the lines that enforce the guide's rules", () => {
  for (const pitfall of Object.keys(ENFORCING_LINES) as PitfallId[]) {
    test(`${pitfall}: its line is found once and holds the rule's code`, async () => {
      const lines = await readShownSource(ENFORCING_LINES[pitfall].path);
      expect(lines).not.toBeNull();
      const line = enforcingLineIn(lines ?? [], pitfall);
      expect(lines?.[line - 1]).toMatch(KEPT_BY[pitfall]);
    });
  }

  test("no other file is shown, however its path is spelled", async () => {
    for (const file of [
      ".env",
      "server/env.ts",
      "../package.json",
      "packages/run-once/../../.env",
      "/etc/passwd",
    ]) {
      expect(await readShownSource(file)).toBeNull();
    }
  });
});
