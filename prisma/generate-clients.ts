/**
 * Generates the Prisma clients: one per provider (SQLite, PostgreSQL) for each
 * schema, the shop's and the payment provider's. Each service picks its
 * client at run time by its database URL. Each run needs a URL of its provider
 * (it is not connected to). Offline: the Prisma CLI only checks that a schema
 * engine exists before `generate` and never runs it, so PRISMA_SCHEMA_ENGINE_BINARY
 * names a file that exists instead of the native engine it would download; and
 * CHECKPOINT_DISABLE keeps it from asking Prisma's server for updates.
 */
import { execFileSync } from "node:child_process";

const URLS = {
  sqlite: "file:./data/generate-only.db",
  postgresql: "postgresql://localhost:5432/generate-only",
};
const SCHEMAS = {
  sqlite: ["prisma/schema.prisma", "provider/prisma/schema.prisma"],
  postgresql: ["prisma/postgresql/schema.prisma", "provider/prisma/postgresql/schema.prisma"],
};

for (const provider of ["sqlite", "postgresql"] as const) {
  for (const schema of SCHEMAS[provider]) {
    console.log(`Generating the ${provider} client of ${schema}`);
    execFileSync("prisma", ["generate", "--schema", schema], {
      stdio: "inherit",
      env: {
        ...process.env,
        DATABASE_URL: URLS[provider],
        PRISMA_SCHEMA_ENGINE_BINARY: "/dev/null",
        CHECKPOINT_DISABLE: "1",
      },
    });
  }
}
