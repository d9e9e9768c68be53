import { expect } from "vitest";
import type { Cluster } from "./instances";
import { clusterTest } from "~/testing/fixtures";

/** Paths that are not valid percent-encoding, against `next start`: the client's mistake, never a 5xx. */
let cluster: Cluster;
let baseUrl: string;

// As production runs: without the lab (the test runner's NODE_ENV would turn it on).
const test = clusterTest({ count: 1, env: { LAB_ENABLED: "0" } });

test.beforeAll(async ({ running }) => {
  ({ cluster } = running);
  baseUrl = cluster.instances[0]!.url;
});

test.each([
  ["GET", "/api/trpc/%E0%A4%A"],
  ["GET", "/orders/%E0%A4%A"],
  ["GET", "/api/trpc/catalog.list,%FF"],
  ["POST", "/api/trpc/orders.place%C0"],
])("answers %s %s with 400 and a sentence", async (method, path) => {
  const response = await fetch(`${baseUrl}${path}`, { method });
  expect(response.status).toBe(400);
  expect(await response.text()).toMatch(/not valid percent-encoded UTF-8/);
});

test("still serves well-encoded paths, non-ASCII ones included", async () => {
  expect((await fetch(`${baseUrl}/api/trpc/catalog.list`)).status).toBe(200);
  // A well-encoded order id reaches the order page, which says that this session has no such order.
  const orderPage = await fetch(`${baseUrl}/orders/ord_%C3%A9t%C3%A9`);
  expect(orderPage.status).toBe(404);
  expect(await orderPage.text()).toContain("Order not found");
  const unknownPage = await fetch(`${baseUrl}/%E0%A4%A4`);
  expect(unknownPage.status).toBe(404);
  expect(await unknownPage.text()).toContain("Page not found");
});

test("has no lab source page without the lab, not even for the files the lab shows", async () => {
  for (const path of ["/source/packages/run-once/execution.ts", "/source/server/env.ts"]) {
    expect((await fetch(`${baseUrl}${path}`)).status).toBe(404);
  }
});
