import { defineConfig } from "prisma/config";
import { postgresMigrationAdapter } from "./server/db/postgres-adapter";
import { SerializedSqliteAdapterFactory } from "./server/db/sqlite-adapter";
import { databaseProvider, resolveDatabaseUrl } from "./server/db/database-url";
import { env } from "./server/env";

// The CLI runs on the WebAssembly schema engine through a driver adapter, as
// the application does: no native engine download (see STACK.md). The
// provider follows DATABASE_URL: a file: URL is SQLite, a postgresql:// URL
// selects the generated PostgreSQL schema and its migrations.
const url = resolveDatabaseUrl(env.DATABASE_URL);
const provider = databaseProvider(url);
const folder = provider === "sqlite" ? "prisma" : "prisma/postgresql";
process.env.DATABASE_URL = url;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: `${folder}/schema.prisma`,
  migrations: { path: `${folder}/migrations` },
  async adapter() {
    return provider === "sqlite" ? new SerializedSqliteAdapterFactory(url) : postgresMigrationAdapter(url);
  },
});
