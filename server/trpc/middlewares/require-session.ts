import { DomainError } from "../../errors";
import { middleware } from "../init";

/** Orders and keys belong to the caller's session, so these procedures need one. */
export const requireSession = middleware(({ ctx, next }) => {
  if (!ctx.sessionId) {
    throw new DomainError(
      "SESSION_REQUIRED",
      "No session: send the checkout_session cookie that the site sets on your first request (curl: -c jar -b jar).",
    );
  }
  return next({ ctx: { sessionId: ctx.sessionId } });
});
