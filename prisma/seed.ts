import { createDb } from "../server/db/client";
import { env, resolveDatabaseUrl } from "../server/env";

/** A small catalogue, written only into an empty one: a restart never resets prices. */
const PRODUCTS = [
  {
    sku: "espresso-beans",
    name: "Espresso beans",
    emoji: "☕",
    priceCents: 1450,
    description: "1 kg of dark roast, for the morning that must not happen twice.",
  },
  {
    sku: "ceramic-mug",
    name: "Ceramic mug",
    emoji: "🍵",
    priceCents: 1800,
    description: "Holds exactly one coffee, like a key holds exactly one charge.",
  },
  {
    sku: "notebook",
    name: "Dot-grid notebook",
    emoji: "📓",
    priceCents: 1200,
    description: "For writing down keys before the retry loop.",
  },
  {
    sku: "desk-plant",
    name: "Desk plant",
    emoji: "🪴",
    priceCents: 2400,
    description: "Grows once; does not replay.",
  },
  {
    sku: "headphones",
    name: "Headphones",
    emoji: "🎧",
    priceCents: 8900,
    description: "Noise cancelling, for duplicate-free focus.",
  },
  {
    sku: "backpack",
    name: "Backpack",
    emoji: "🎒",
    priceCents: 6500,
    description: "Carries your idempotency key everywhere.",
  },
];

export async function seedCatalog(databaseUrl: string): Promise<number> {
  const db = createDb(databaseUrl);
  try {
    if ((await db.product.count()) > 0) return 0;
    const { count } = await db.product.createMany({ data: PRODUCTS });
    return count;
  } finally {
    await db.$disconnect();
  }
}

const created = await seedCatalog(resolveDatabaseUrl(env.DATABASE_URL));
console.log(created > 0 ? `Seeded ${created} products.` : "Catalogue already present.");
