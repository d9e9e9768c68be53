import { clientAddress } from "../../throttle/client-address";
import { middleware } from "../init";

/**
 * Counts every mutation sent over HTTP against its session's and its
 * address's limits (server/throttle/); a server-side caller is not limited.
 * It runs before the input is parsed and before run-once claims a key, so a
 * refusal (429) stores nothing, and the retry after Retry-After runs as the
 * first attempt would have.
 */
export const throttleMutations = middleware(async ({ ctx, type, next }) => {
  if (type === "mutation" && ctx.throttle && ctx.http && ctx.sessionId) {
    // Duplicates count too: a client resending in a loop is what a throttle is for, and counting writes nothing.
    await ctx.throttle.consume(ctx.sessionId, clientAddress(ctx.http.requestHeaders));
  }
  return next();
});
