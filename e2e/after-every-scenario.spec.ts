import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { createDb } from "../server/db/client";
import { TEST_CARD_NUMBERS } from "../provider/test-cards";
import { E2E_SERVERS } from "./environment";
import { tablesHolding } from "./tables-holding";

/**
 * Run once both databases' suites are over (every scenario followed, every
 * card typed or picked): no card number is in the shop's database, in what
 * its server printed, or in its server-side code. The provider alone sees them.
 */

/** Any test card's number, grouped or not, as a page, a log or a row might carry it. */
const ANY_CARD = new RegExp(
  TEST_CARD_NUMBERS.map((number) => number.match(/.{4}/g)!.join(String.raw`(?:[\s+-]|%20)?`)).join("|"),
);

for (const [name, server] of Object.entries(E2E_SERVERS)) {
  test(`${name}: the shop's database and its server's output hold no card number`, async () => {
    const db = createDb(resolveDatabaseUrl(server.databaseUrl));
    try {
      // Not empty: the suite's payments are there, and none of them kept a card.
      expect(await db.charge.count()).toBeGreaterThan(0);
      expect(await tablesHolding(db, server.databaseUrl, ANY_CARD)).toEqual([]);
    } finally {
      await db.$disconnect();
    }
    const output = await readFile(server.serverLog, "utf8");
    expect(output).toContain('"procedure":"payments.charge"');
    expect(output.match(ANY_CARD)).toBeNull();
  });
}

test("the shop's server-side code holds no card number", async () => {
  const sources = await serverSources(["server", path.join("app", "api")]);
  expect(sources.length).toBeGreaterThan(50);
  const holding = [];
  for (const file of sources) if (ANY_CARD.test(await readFile(file, "utf8"))) holding.push(file);
  expect(holding).toEqual([]);
});

/** The TypeScript files under the folders, tests and generated clients left out. */
async function serverSources(folders: string[]): Promise<string[]> {
  const files = await Promise.all(
    folders.map((folder) => readdir(folder, { recursive: true, withFileTypes: true })),
  );
  return files
    .flat()
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes("generated"));
}
