import { publicProcedure } from "../procedures";
import { router } from "../init";
import { listCatalogOutput } from "../../catalog/schemas";

export const catalogRouter = router({
  list: publicProcedure
    .output(listCatalogOutput)
    .query(({ ctx }) => ctx.db.product.findMany({ orderBy: { priceCents: "asc" } })),
});
