import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { DESKTOP, E2E_SERVERS } from "./e2e/environment";
import type { E2EProvider } from "./e2e/environment";

/**
 * Debian's Chromium where it is installed (machines without internet cannot
 * download Playwright's browsers), Playwright's own browser elsewhere.
 * CHROMIUM_PATH names another one.
 */
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

const AFTER_EVERY_SCENARIO = /after-every-scenario\.spec\.ts$/;

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    trace: "on-first-retry",
    screenshot: "only-on-failure",
  },
  projects: [
    ...(Object.keys(E2E_SERVERS) as E2EProvider[]).map((provider) => ({
      name: provider,
      testIgnore: AFTER_EVERY_SCENARIO,
      use: {
        ...devices["Desktop Chrome"],
        viewport: DESKTOP,
        baseURL: `http://localhost:${E2E_SERVERS[provider].port}`,
        databaseUrl: E2E_SERVERS[provider].databaseUrl,
        launchOptions: {
          executablePath: chromiumPath,
          // Without the background-networking flags Chromium floods a closed
          // network with connection attempts.
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        },
      },
    })),
    // Once both databases' runs are over: what they left must hold no card number.
    { name: "after every scenario", testMatch: AFTER_EVERY_SCENARIO, dependencies: Object.keys(E2E_SERVERS) },
  ],
  // One production server per database, each on a database emptied for the run.
  // `npm test` builds first and sets E2E_SKIP_BUILD; alone, the suite builds.
  webServer: (Object.keys(E2E_SERVERS) as E2EProvider[]).map((provider, index) => ({
    command: [
      `tsx testing/reset-database.ts ${E2E_SERVERS[provider].databaseUrl} ${E2E_SERVERS[provider].providerDatabaseUrl}`,
      ...(process.env.E2E_SKIP_BUILD || index > 0 ? [] : ["npm run build"]),
      // Its output kept for the search after every scenario (and for reading when a test fails).
      `npm start 2>&1 | tee ${E2E_SERVERS[provider].serverLog}`,
    ].join(" && "),
    url: `http://localhost:${E2E_SERVERS[provider].port}/api/trpc/catalog.list`,
    reuseExistingServer: !process.env.CI,
    timeout: 300_000,
    env: {
      PORT: String(E2E_SERVERS[provider].port),
      DATABASE_URL: E2E_SERVERS[provider].databaseUrl,
      PROVIDER_PORT: String(E2E_SERVERS[provider].providerPort),
      PROVIDER_DATABASE_URL: E2E_SERVERS[provider].providerDatabaseUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      LAB_ENABLED: "1",
    },
  })),
});
