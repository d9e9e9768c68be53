import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TMP } from "~/testing/paths";
import { databaseUrl } from "~/testing/postgres-admin";
import { UnusableDatabaseError, checkDatabase } from "./check-database";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("checkDatabase", () => {
  it("refuses a read-only SQLite file", async () => {
    const file = path.join(TMP, `read-only-${randomUUID()}.db`);
    writeFileSync(file, "");
    makeReadOnly(file);
    cleanups.push(() => {
      makeWritable(file);
      rmSync(file, { force: true });
    });

    await expect(checkDatabase(`file:${file}`)).rejects.toThrow(
      new UnusableDatabaseError(`file:${file}`, `the file ${file} is read-only`),
    );
  });

  it("refuses a PostgreSQL server that does not answer, and hides the password", async () => {
    await expect(checkDatabase("postgresql://shop:secret@127.0.0.1:1/shop")).rejects.toThrow(
      "Cannot use the database at postgresql://shop:***@127.0.0.1:1/shop: nothing accepts connections at 127.0.0.1:1 (is PostgreSQL running?).",
    );
  });

  it("refuses a PostgreSQL database that does not exist, and says how to create it", async () => {
    const url = databaseUrl(`idem_missing_${randomUUID().slice(0, 8)}`);
    await expect(checkDatabase(url)).rejects.toThrow(
      /does not exist \(createdb -h 127\.0\.0\.1 idem_missing_/,
    );
  });

  it("leaves a usable SQLite file as it was", async () => {
    const file = path.join(TMP, `usable-${randomUUID()}.db`);
    cleanups.push(() => rmSync(file, { force: true }));
    await checkDatabase(`file:${file}`);
    expect(existsSync(file)).toBe(true);
  });
});

/**
 * chmod does not stop root, who runs CI here; an immutable file (chattr +i)
 * stops everyone on ext4.
 */
function makeReadOnly(file: string) {
  chmodSync(file, 0o444);
  if (process.getuid?.() === 0) execFileSync("chattr", ["+i", file]);
}

function makeWritable(file: string) {
  if (process.getuid?.() === 0) execFileSync("chattr", ["-i", file]);
  chmodSync(file, 0o644);
}
