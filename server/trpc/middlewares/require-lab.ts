import { TRPCError } from "@trpc/server";
import { middleware } from "../init";

/** The lab's procedures do not exist where the lab is off (production, unless LAB_ENABLED=1). */
export const requireLab = middleware(({ ctx, next }) => {
  if (!ctx.labEnabled) {
    throw new TRPCError({
      code: "NOT_FOUND",
      message: "The fault-injection lab is off here; start the server with LAB_ENABLED=1 to use it.",
    });
  }
  return next();
});
