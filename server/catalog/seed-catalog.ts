import type { Db } from "../db/client";

const PRODUCTS = [
  {
    sku: "espresso-beans",
    name: "Espresso beans",
    priceCents: 1450,
    description: "1 kg of dark roast, for the morning that must not happen twice.",
  },
  {
    sku: "ceramic-mug",
    name: "Ceramic mug",
    priceCents: 1800,
    description: "Holds exactly one coffee, like a key holds exactly one charge.",
  },
  {
    sku: "notebook",
    name: "Dot-grid notebook",
    priceCents: 1200,
    description: "For writing down keys before the retry loop.",
  },
  { sku: "desk-plant", name: "Desk plant", priceCents: 2400, description: "Grows once; does not replay." },
  {
    sku: "headphones",
    name: "Headphones",
    priceCents: 8900,
    description: "Noise cancelling, for duplicate-free focus.",
  },
  {
    sku: "backpack",
    name: "Backpack",
    priceCents: 6500,
    description: "Carries your idempotency key everywhere.",
  },
];

/** Writes the catalogue into an empty one only, so a restart never resets prices; returns how many it wrote. */
export async function seedCatalog(db: Db): Promise<number> {
  if ((await db.product.count()) > 0) return 0;
  const { count } = await db.product.createMany({ data: PRODUCTS });
  return count;
}
