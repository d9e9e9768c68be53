import { randomUUID } from "node:crypto";
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { SQLITE_TEMPLATE, TMP } from "./paths";

/** A fresh, migrated database: a copy of the run's template. */
export interface TestDatabase {
  url: string;
  drop(): void;
}

export function createTestDatabase(): TestDatabase {
  const file = path.join(TMP, `test-${randomUUID()}.db`);
  copyFileSync(SQLITE_TEMPLATE, file);
  return {
    url: `file:${file}`,
    drop() {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    },
  };
}
