import { defineConfig } from "prisma/config";
import { databaseProvider } from "./database-url";
import { postgresMigrationAdapter } from "./postgres-adapter";
import { SerializedSqliteAdapterFactory } from "./sqlite-adapter";

/**
 * The Prisma CLI's configuration for one schema folder (the app's `prisma/`,
 * the payment provider's `provider/prisma/`), relative to the config file.
 * The CLI runs on the WebAssembly schema engine through a driver adapter, as
 * the application does: no native engine download (see STACK.md). The
 * provider follows the URL: a file: URL is SQLite, a postgresql:// URL selects
 * the generated PostgreSQL schema and its migrations.
 */
export function prismaCliConfig(folder: string, url: string) {
  const provider = databaseProvider(url);
  const schemaFolder = provider === "sqlite" ? folder : `${folder}/postgresql`;
  // The schema's datasource names env("DATABASE_URL"); the CLI reads it from there.
  process.env.DATABASE_URL = url;
  return defineConfig({
    experimental: { adapter: true },
    engine: "js",
    schema: `${schemaFolder}/schema.prisma`,
    migrations: { path: `${schemaFolder}/migrations` },
    async adapter() {
      return provider === "sqlite" ? new SerializedSqliteAdapterFactory(url) : postgresMigrationAdapter(url);
    },
  });
}
