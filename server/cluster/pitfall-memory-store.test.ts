import { expect } from "vitest";
import { clusterTest } from "~/testing/fixtures";
import { retryAfterLostReply } from "~/testing/lost-reply-through-proxy";

/**
 * The guide's pitfall "in-memory stores behind a load balancer", for real:
 * two `next start` instances behind the demo's proxy, one address, and the
 * lab's pitfall charge with its keys in each instance's memory. A reply is
 * lost on one instance; the retry lands on the other.
 */
const test = clusterTest({ count: 2, env: { LAB_ENABLED: "1" }, proxy: true });

test("keys in each instance's memory: the retry on the other instance executes again, and charges twice", async ({
  running,
}) => {
  expect(
    await retryAfterLostReply(running, {
      procedure: "lab.pitfallCharge",
      shop: { pitfallMode: true, brokenRule: "memory-store" },
    }),
  ).toEqual({
    decision: "executed",
    charges: 2,
    providerCharges: 2,
  });
});

test("keys in the shared store: the retry on the other instance replays the one charge", async ({
  running,
}) => {
  expect(
    await retryAfterLostReply(running, {
      procedure: "lab.pitfallCharge",
      shop: { pitfallMode: true, brokenRule: null },
    }),
  ).toEqual({
    decision: "replayed",
    charges: 1,
    providerCharges: 1,
  });
});
