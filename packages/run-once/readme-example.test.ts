import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { createTestDatabase } from "./test-support/test-database";
import type { TestDatabase } from "./test-support/test-database";
import { KeyReusedError } from "./errors";
import { Declined, chargeOnce } from "./examples/charge-once";

const here = path.dirname(new URL(import.meta.url).pathname);

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.close();
});

it("shows examples/charge-once.ts as its example, word for word", () => {
  const readme = readFileSync(path.join(here, "README.md"), "utf8");
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("## Example")))?.[1];
  const example = readFileSync(path.join(here, "examples/charge-once.ts"), "utf8");
  expect(block).toBe(example);
});

it("runs as the README says: one charge per key, refusals stored nowhere, declines replayed", async () => {
  database = await createTestDatabase();
  const { db } = database;
  await database.exec(`CREATE TABLE "Ledger" ("account" TEXT NOT NULL, "cents" INTEGER NOT NULL)`);
  const charge = chargeOnce(db);
  const count = async (rows: PromiseLike<Array<{ n: unknown }>>) => Number((await rows)[0]?.n);
  const ledgerRows = () => count(db.$queryRaw`SELECT COUNT(*) AS n FROM "Ledger"`);

  const runs = await Promise.all([charge("acct", "k1", 500), charge("acct", "k1", 500)]);
  expect(runs.map((run) => run.decision).sort()).toEqual(["coalesced", "executed"]);
  expect(await charge("acct", "k1", 500)).toEqual({ decision: "replayed", rows: 1 });
  await expect(charge("acct", "k1", 700)).rejects.toBeInstanceOf(KeyReusedError);
  expect(await ledgerRows()).toBe(1);

  await expect(charge("acct", "k2", 0)).rejects.toBeInstanceOf(RangeError);
  expect(await count(db.$queryRaw`SELECT COUNT(*) AS n FROM "IdempotencyKey" WHERE "key" = 'k2'`)).toBe(0);

  await expect(charge("acct", "k3", 200_000)).rejects.toBeInstanceOf(Declined);
  await expect(charge("acct", "k3", 200_000)).rejects.toThrow("over the limit");
  expect(await ledgerRows()).toBe(1);
});
