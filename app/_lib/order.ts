import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/trpc/routers/_app";

/** An order as the order page shows it: with its charges, its payment attempts and its key's state. */
export type Order = inferRouterOutputs<AppRouter>["orders"]["get"];
