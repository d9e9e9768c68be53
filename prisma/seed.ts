import { seedCatalog } from "../server/catalog/seed-catalog";
import { createDb } from "../server/db/client";
import { env, resolveDatabaseUrl } from "../server/env";

const db = createDb(resolveDatabaseUrl(env.DATABASE_URL));
try {
  const created = await seedCatalog(db);
  console.log(created > 0 ? `Seeded ${created} products.` : "Catalogue already present.");
} finally {
  await db.$disconnect();
}
