import { randomUUID } from "node:crypto";
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { TMP } from "./paths";
import { dropDatabase, recreateDatabase } from "./postgres-admin";

/** The two data models a test may need a database of: the shop's and the payment provider's. */
export type SchemaName = "shop" | "provider";

/** A fresh, migrated database: a copy of the run's template, on the engine the test project runs. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(schema: SchemaName = "shop"): Promise<TestDatabase> {
  const templates = inject("databaseTemplates");
  const template = templates.names[schema];
  if (templates.engine === "postgresql") {
    const name = `${template}_${randomUUID().slice(0, 8)}`;
    const url = await recreateDatabase(name, template);
    return { url, drop: () => dropDatabase(name) };
  }
  const file = path.join(TMP, `test-${schema}-${randomUUID()}.db`);
  copyFileSync(template, file);
  return {
    url: `file:${file}`,
    async drop() {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    },
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Set by the project's global setup: per schema, a SQLite file path or a PostgreSQL database name. */
    databaseTemplates: { engine: "sqlite" | "postgresql"; names: Record<SchemaName, string> };
  }
}
