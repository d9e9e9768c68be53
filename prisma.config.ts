import { defineConfig } from "prisma/config";
import { databaseProvider, env, resolveDatabaseUrl } from "./server/env";
import { SerializedSqliteAdapterFactory } from "./server/db/sqlite-adapter";

// The CLI runs on the WebAssembly schema engine through the same driver
// adapter as the application: no native engine download (see STACK.md).
const url = resolveDatabaseUrl(env.DATABASE_URL);
process.env.DATABASE_URL = url;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  async adapter() {
    if (databaseProvider(url) !== "sqlite") throw new Error("PostgreSQL is not wired yet");
    return new SerializedSqliteAdapterFactory(url);
  },
});
