import { expect } from "vitest";
import type { Cluster } from "./instances";
import { clusterTest } from "~/testing/fixtures";

/**
 * The hardening headers of next.config.ts on every kind of answer of `next
 * start`: prerendered and dynamic pages, the API, a 404. That the pages still
 * work under the policy is e2e/content-security-policy.spec.ts's part.
 */
let cluster: Cluster;
let baseUrl: string;

const test = clusterTest({ count: 1 });

test.beforeAll(async ({ running }) => {
  ({ cluster } = running);
  baseUrl = cluster.instances[0]!.url;
});

test.each(["/", "/orders", "/ledger", "/orders/ord_unknown", "/api/trpc/catalog.list", "/nowhere"])(
  "%s may not be framed, sniffed or leak its path to other sites",
  async (path) => {
    const response = await fetch(`${baseUrl}${path}`);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toContain("unsafe-eval");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
  },
);
