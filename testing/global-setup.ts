import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "service-kit/db/migrate";
import { TMP } from "./paths";
import { dropDatabase, recreateDatabase } from "./postgres-admin";
import type { SchemaName } from "./test-database";

const PRISMA_CONFIGS: Record<SchemaName, string> = {
  shop: "prisma.config.ts",
  provider: "provider/prisma.config.ts",
};

/**
 * Migrates a template database per schema (the shop's, the payment
 * provider's) once per run with the real migrations; each test copies one
 * instead of migrating again. The project's TEST_DATABASE says which engine:
 * sqlite or postgresql. A PostgreSQL server that cannot be reached fails the
 * run: nothing is skipped.
 */
export default async function setup(project: TestProject) {
  mkdirSync(TMP, { recursive: true });
  const engine = project.config.env.TEST_DATABASE === "postgresql" ? "postgresql" : "sqlite";
  const templates = await Promise.all(
    (Object.keys(PRISMA_CONFIGS) as SchemaName[]).map(async (schema) => {
      const name =
        engine === "postgresql"
          ? `idem_test_${schema}_${randomUUID().slice(0, 8)}`
          : path.join(TMP, `template-${schema}-${randomUUID()}.db`);
      const url = engine === "postgresql" ? await recreateDatabase(name) : `file:${name}`;
      await migrateDatabase(url, { config: PRISMA_CONFIGS[schema] });
      return [schema, name] as const;
    }),
  );
  project.provide("databaseTemplates", {
    engine,
    names: Object.fromEntries(templates) as Record<SchemaName, string>,
  });

  return async () => {
    for (const [, name] of templates) {
      if (engine === "postgresql") await dropDatabase(name);
      else for (const suffix of ["", "-wal", "-shm"]) rmSync(name + suffix, { force: true });
    }
  };
}
