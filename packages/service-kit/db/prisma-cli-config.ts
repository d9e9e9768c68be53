import { defineConfig } from "prisma/config";
import { schemaFolderOf } from "./database-url";

/** The Prisma CLI's config for the schema the URL picks; the CLI only generates clients here. */
export function prismaCliConfig(url: string) {
  const folder = schemaFolderOf(url);
  return defineConfig({
    schema: `${folder}/schema.prisma`,
    migrations: { path: `${folder}/migrations` },
    datasource: { url },
  });
}
