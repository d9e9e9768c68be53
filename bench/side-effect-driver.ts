/** What the side effect's transaction is written with: Prisma (as the shop does), or node-postgres (PgDatabase). */
export type SideEffectDriver = "prisma" | "pg";
export const SIDE_EFFECT_DRIVERS: SideEffectDriver[] = ["prisma", "pg"];
