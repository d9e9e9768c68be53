/** `npm run db:prepare`: checks DATABASE_URL, applies the migrations, seeds an empty catalogue. */
import { seedCatalog } from "../server/catalog/seed-catalog";
import { checkDatabase } from "service-kit/db/check-database";
import { createDb } from "../server/db/client";
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { migrateDatabase } from "service-kit/db/migrate";

try {
  // Imported here, so that an invalid environment is reported like the rest.
  const { env } = await import("../server/env");
  const url = resolveDatabaseUrl(env.DATABASE_URL);
  await checkDatabase(url);
  await migrateDatabase(url);
  const db = createDb(url);
  const created = await seedCatalog(db).finally(() => db.$disconnect());
  console.log(created > 0 ? `Database ready; seeded ${created} products.` : "Database ready.");
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
