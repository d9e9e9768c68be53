import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { ROOT } from "~/testing/paths";
import { createTestDatabase } from "~/testing/test-database";
import type { TestDatabase } from "~/testing/test-database";

let database: TestDatabase;
afterEach(() => database.drop());

/**
 * Runs `prisma db push` until it says what it would do. It is stopped once it
 * has answered: on PostgreSQL the CLI can idle for a minute before exiting.
 */
function dbPush(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const cli = path.join(ROOT, "node_modules/prisma/build/index.js");
    const child = spawn(process.execPath, [cli, "db", "push", "--skip-generate"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
    });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (/already in sync|now in sync|Error/i.test(output)) {
        child.kill();
        resolve(output);
      }
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", reject);
    child.on("close", () => resolve(output));
  });
}

it("has migrations that build exactly the schema: nothing is left for db push to do", async () => {
  database = await createTestDatabase();
  expect(await dbPush(database.url)).toContain("The database is already in sync with the Prisma schema.");
});
