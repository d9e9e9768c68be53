/** Generates each schema's clients (SQLite, PostgreSQL) offline, with no native schema engine. */
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
