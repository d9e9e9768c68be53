import { z } from "zod";

export const skuSchema = z
  .string()
  .regex(/^[a-z0-9-]{1,64}$/, { message: "a SKU is 1 to 64 lowercase letters, digits or dashes" });

const productSchema = z.object({
  sku: skuSchema,
  name: z.string(),
  description: z.string(),
  priceCents: z.number().int(),
});

export const listCatalogOutput = z.array(productSchema);
