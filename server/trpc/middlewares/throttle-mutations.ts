import { clientAddress } from "../../throttle/client-address";
import { middleware } from "../init";

/** Throttles HTTP mutations before input parsing and run-once, so a 429 stores nothing. */
export const throttleMutations = middleware(async ({ ctx, type, next }) => {
  if (type === "mutation" && ctx.throttle && ctx.http && ctx.sessionId) {
    // Duplicates count too: a client resending in a loop is what a throttle is for, and counting writes nothing.
    await ctx.throttle.consume(ctx.sessionId, clientAddress(ctx.http.requestHeaders));
  }
  return next();
});
