import { expect } from "vitest";
import { clusterTest } from "~/testing/fixtures";
import { retryAfterLostReply } from "~/testing/lost-reply-through-proxy";

/**
 * The guide's pitfall "in-memory stores behind a load balancer", for real:
 * two `next start` instances behind the demo's proxy, one address, and the
 * lab's pitfall charge with its keys in each instance's memory. A reply is
 * lost on one instance; the retry lands on the other, however many reads the
 * order page sends through the proxy between the two (it polls the order).
 */
const test = clusterTest({ count: 2, env: { LAB_ENABLED: "1" }, proxy: true });

test.for([0, 1, 2, 3])(
  "keys in each instance's memory, %i reads between: the retry on the other instance executes again, and charges twice",
  async (readsBetween, { running }) => {
    expect(
      await retryAfterLostReply(running, {
        procedure: "lab.pitfallCharge",
        shop: { pitfallMode: true, brokenRule: "memory-store" },
        readsBetween,
      }),
    ).toEqual({
      decision: "executed",
      charges: 2,
      providerCharges: 2,
    });
  },
);

test("keys in the shared store: the retry on the other instance replays the one charge", async ({
  running,
}) => {
  expect(
    await retryAfterLostReply(running, {
      procedure: "lab.pitfallCharge",
      shop: { pitfallMode: true, brokenRule: null },
      readsBetween: 1,
    }),
  ).toEqual({
    decision: "replayed",
    charges: 1,
    providerCharges: 1,
  });
});
