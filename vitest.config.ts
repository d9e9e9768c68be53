import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "~": fileURLToPath(new URL(".", import.meta.url)) };
const shared = {
  environment: "node" as const,
  globalSetup: ["testing/global-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 120_000,
  // A worker keeps its modules between files: importing the server afresh for each file was a third of the run's CPU.
  isolate: false,
};

/** `npm run test:unit` leaves out the tests that start servers or kill processes or sessions for long (server/cluster, the kill tests). */
const scoped =
  process.env.TEST_SCOPE === "unit"
    ? [
        "server/cluster/**",
        "server/receipts/receipt-crash.test.ts",
        "packages/run-once/owner-sessions-termination.postgresql.test.ts",
      ]
    : [];

/** The suite runs on SQLite (the default) and on PostgreSQL (the shared store); *.sqlite/*.postgresql.test.ts on one only. */
export default defineConfig({
  resolve: { alias },
  test: {
    // Two cores: two test files at a time, each on databases of its own.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "sqlite",
          include: [
            "packages/**/*.test.ts",
            "server/**/*.test.ts",
            "provider/**/*.test.ts",
            "app/**/*.test.ts",
          ],
          exclude: ["**/*.postgresql.test.ts", ...scoped],
          env: { NODE_ENV: "test", TEST_DATABASE: "sqlite" },
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "postgresql",
          // The client's tests know no database; they run once, above.
          include: ["packages/**/*.test.ts", "server/**/*.test.ts", "provider/**/*.test.ts"],
          exclude: ["**/*.sqlite.test.ts", "packages/retry-policy/**", ...scoped],
          env: { NODE_ENV: "test", TEST_DATABASE: "postgresql" },
        },
      },
    ],
  },
});
