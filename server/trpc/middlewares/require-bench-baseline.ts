import { TRPCError } from "@trpc/server";
import { middleware } from "../init";

/** The benchmark's baseline does not exist unless the server runs with BENCH_BASELINE=1. */
export const requireBenchBaseline = middleware(({ ctx, next }) => {
  if (!ctx.benchBaseline) {
    throw new TRPCError({
      code: "NOT_FOUND",
      message: "The benchmark baseline is off (BENCH_BASELINE=1).",
    });
  }
  return next();
});
