import { expect } from "vitest";
import { clusterTest } from "~/testing/fixtures";
import { retryAfterLostReply } from "~/testing/lost-reply-through-proxy";
import { SERVED_BY_HEADER } from "./proxy-headers";

/**
 * Two `next start` instances behind the demo's proxy, one address: a retry
 * can land on the other instance, and run-once holds across them.
 */
const test = clusterTest({ count: 2, env: { LAB_ENABLED: "1" }, proxy: true });

test("sends each request to the next instance in turn, and says which one answered", async ({
  running: { urls, proxyUrl },
}) => {
  const servedBy: Array<string | null> = [];
  for (let i = 0; i < 4; i++) {
    const response = await fetch(`${proxyUrl}/api/trpc/catalog.list`);
    expect(response.status).toBe(200);
    servedBy.push(response.headers.get(SERVED_BY_HEADER));
  }
  const [first, second] = urls;
  expect(new Set(servedBy)).toEqual(new Set([first, second]));
  expect(servedBy[0]).not.toBe(servedBy[1]);
  expect(servedBy[2]).toBe(servedBy[0]);
});

test("a reply lost on one instance breaks the client's connection, and the retry, on the other instance, replays the one charge", async ({
  running,
}) => {
  expect(await retryAfterLostReply(running, { procedure: "payments.charge", shop: {} })).toEqual({
    decision: "replayed",
    charges: 1,
    providerCharges: 1,
  });
});

test("an instance that is down answers 502 once and leaves the rotation, so retries land on the one that is up", async ({
  running: { cluster, urls, proxyUrl },
}) => {
  await cluster.crash(1);
  const statuses: number[] = [];
  const servedBy = new Set<string | null>();
  for (let i = 0; i < 6; i++) {
    const response = await fetch(`${proxyUrl}/api/trpc/catalog.list`);
    statuses.push(response.status);
    if (response.ok) servedBy.add(response.headers.get(SERVED_BY_HEADER));
  }
  expect(statuses.filter((status) => status === 502).length).toBeLessThanOrEqual(1);
  expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(5);
  expect([...servedBy]).toEqual([urls[0]]);
});
