import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { E2E_DATABASE_URL, E2E_PORT } from "./e2e/environment";

/**
 * Debian's Chromium where it is installed (machines without internet cannot
 * download Playwright's browsers), Playwright's own browser elsewhere.
 * CHROMIUM_PATH names another one.
 */
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

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
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: "on-first-retry",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
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
    },
  ],
  webServer: {
    // The production build on a database of its own, emptied for each run.
    command: "rm -f .tmp/e2e.db .tmp/e2e.db-wal .tmp/e2e.db-shm && npm run build && npm start",
    url: `http://localhost:${E2E_PORT}/api/trpc/catalog.list`,
    reuseExistingServer: !process.env.CI,
    timeout: 300_000,
    env: {
      PORT: String(E2E_PORT),
      DATABASE_URL: E2E_DATABASE_URL,
      NEXT_TELEMETRY_DISABLED: "1",
      LAB_ENABLED: "1",
    },
  },
});
