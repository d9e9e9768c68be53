import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../server/db/migrate";
import { TMP } from "./paths";
import { dropDatabase, recreateDatabase } from "./postgres-admin";

/**
 * Migrates a template database once per run with the real migrations (prisma
 * migrate deploy); each test copies it instead of migrating again. The
 * project's TEST_DATABASE says which provider: sqlite or postgresql. A
 * PostgreSQL server that cannot be reached fails the run: nothing is skipped.
 */
export default async function setup(project: TestProject) {
  mkdirSync(TMP, { recursive: true });
  const provider = project.config.env.TEST_DATABASE === "postgresql" ? "postgresql" : "sqlite";
  const name =
    provider === "postgresql"
      ? `idem_test_${randomUUID().slice(0, 8)}`
      : path.join(TMP, `template-${randomUUID()}.db`);
  const url = provider === "postgresql" ? await recreateDatabase(name) : `file:${name}`;

  await migrateDatabase(url);
  project.provide("databaseTemplate", { provider, name });

  return async () => {
    if (provider === "postgresql") await dropDatabase(name);
    else for (const suffix of ["", "-wal", "-shm"]) rmSync(name + suffix, { force: true });
  };
}
