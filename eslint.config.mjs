import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    "next-env.d.ts",
    "server/db/generated/**",
    "provider/db/generated/**",
    "test-results/**",
    "playwright-report/**",
    "bench/results/**",
  ]),
  {
    // Playwright's and Vitest's fixtures call their argument `use`, which is not React's hook.
    files: ["e2e/**", "testing/fixtures.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
]);
