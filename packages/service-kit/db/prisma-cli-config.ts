import { defineConfig } from "prisma/config";
import { schemaFolderOf } from "./database-url";

/**
 * The Prisma CLI's configuration for the schema in the `prisma/` folder beside
 * the config file (the shop's, the payment provider's), chosen by the URL: a
 * file: URL is the SQLite schema, a postgresql:// URL its generated PostgreSQL
 * twin. Here the CLI only generates the clients; the migrations are applied by
 * `migrate.ts` (see docs/operations.md, "Migrations").
 */
export function prismaCliConfig(url: string) {
  const folder = schemaFolderOf(url);
  return defineConfig({
    schema: `${folder}/schema.prisma`,
    migrations: { path: `${folder}/migrations` },
    datasource: { url },
  });
}
