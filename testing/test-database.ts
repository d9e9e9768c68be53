import { randomUUID } from "node:crypto";
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { TMP } from "./paths";
import { dropDatabase, recreateDatabase } from "./postgres-admin";

/** A fresh, migrated database: a copy of the run's template, on the provider the test project runs. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject("databaseTemplate");
  if (template.provider === "postgresql") {
    const name = `${template.name}_${randomUUID().slice(0, 8)}`;
    const url = await recreateDatabase(name, template.name);
    return { url, drop: () => dropDatabase(name) };
  }
  const file = path.join(TMP, `test-${randomUUID()}.db`);
  copyFileSync(template.name, file);
  return {
    url: `file:${file}`,
    async drop() {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    },
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Set by the project's global setup: a SQLite file path or a PostgreSQL database name. */
    databaseTemplate: { provider: "sqlite" | "postgresql"; name: string };
  }
}
