/**
 * Empties the databases the URLs name, before a server starts on them:
 * deletes a SQLite file, or drops and recreates a PostgreSQL database.
 * Usage: tsx testing/reset-database.ts <url>...
 */
import { rmSync } from "node:fs";
import { databaseProvider, resolveDatabaseUrl } from "service-kit/db/database-url";
import { recreateDatabase } from "./postgres-admin";

for (const argument of process.argv.slice(2)) {
  const url = resolveDatabaseUrl(argument);
  if (databaseProvider(url) === "sqlite") {
    const file = url.slice("file:".length);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  } else {
    await recreateDatabase(new URL(url).pathname.slice(1));
  }
}
