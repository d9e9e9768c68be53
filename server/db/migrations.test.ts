import { execFileSync } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { ROOT } from "../testing/paths";
import { createTestDatabase } from "../testing/test-database";
import type { TestDatabase } from "../testing/test-database";

let database: TestDatabase;
afterEach(() => database.drop());

it("has migrations that build exactly the schema: nothing is left for db push to do", async () => {
  database = await createTestDatabase();
  const output = execFileSync("npx", ["prisma", "db", "push", "--skip-generate"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database.url },
    encoding: "utf8",
    stdio: "pipe",
  });
  expect(output).toContain("The database is already in sync with the Prisma schema.");
});
