import { test as base, expect } from "vitest";
import { startInstances } from "../server/cluster/instances";
import type { Cluster } from "../server/cluster/instances";
import { startRoundRobinProxy } from "../server/cluster/round-robin-proxy";
import { createProviderDb } from "../provider/db/client";
import type { ProviderDb } from "../provider/db/client";
import { createDb } from "../server/db/client";
import type { Db } from "../server/db/client";
import { createTestApp } from "./test-app";
import type { TestApp } from "./test-app";
import { createTestDatabase } from "./test-database";
import type { TestDatabase } from "./test-database";

/**
 * The application in-process, on a fresh database of the project's provider:
 * `startApp()` as often as a test needs (two apps on one database are two
 * processes), each closed and dropped after the test.
 */
export const test = base.extend<{
  startApp: (opts?: Parameters<typeof createTestApp>[0]) => Promise<TestApp>;
}>({
  // Vitest reads a fixture's dependencies from its first parameter: this one has none.
  startApp: async ({}, use) => {
    const apps: TestApp[] = [];
    await use(async (opts) => {
      const app = await createTestApp(opts);
      apps.push(app);
      return app;
    });
    // Apps sharing another's database close first: the owner drops it.
    for (const app of apps.reverse()) await app.close();
  },
});

export interface ClusterFixture {
  cluster: Cluster;
  /** Each instance's base URL, in order. */
  urls: string[];
  /** With `proxy`: the demo's round-robin proxy in front of every instance. */
  proxyUrl: string;
  database: TestDatabase;
  db: Db;
  /** The payment provider's own database, to check what it charged. */
  providerDb: ProviderDb;
}

/**
 * Real `next start` instances on free ports and one fresh database, with the
 * payment provider as a process of its own on its own database, started
 * once per test file (they take seconds to start) and stopped after it. The
 * build must exist (`npm run build`, which `npm test` runs first).
 */
export function clusterTest(opts: {
  count: number;
  env?: Record<string, string>;
  proxy?: boolean;
  onOutput?: (port: number, text: string) => void;
}) {
  const extended = test.extend<{ running: ClusterFixture }>({
    running: [
      async ({}, use) => {
        const [database, providerDatabase] = await Promise.all([
          createTestDatabase(),
          createTestDatabase("provider"),
        ]);
        const db = createDb(database.url);
        const providerDb = createProviderDb(providerDatabase.url);
        const cluster = await startInstances({
          databaseUrl: database.url,
          providerDatabaseUrl: providerDatabase.url,
          count: opts.count,
          env: opts.env,
          onOutput: opts.onOutput,
        });
        const urls = cluster.instances.map((instance) => instance.url);
        const proxy = opts.proxy ? await startRoundRobinProxy({ targets: urls, port: 0 }) : undefined;
        try {
          await use({ cluster, urls, proxyUrl: proxy?.url ?? "", database, db, providerDb });
        } finally {
          await proxy?.close();
          await cluster.stop();
          await Promise.all([db.$disconnect(), providerDb.$disconnect()]);
          await Promise.all([database.drop(), providerDatabase.drop()]);
        }
      },
      { scope: "file" },
    ],
  });
  // Started in a hook, under the hook timeout: a test's own timeout would also count the start.
  extended.beforeAll(async ({ running }) => {
    expect(running.cluster.instances).toHaveLength(opts.count);
  });
  return extended;
}
