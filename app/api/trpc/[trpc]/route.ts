import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { cookies } from "next/headers";
import { DomainError } from "~/server/errors";
import { logger } from "~/server/logger";
import { getServices } from "~/server/services";
import { SESSION_COOKIE, isSessionId } from "~/server/session";
import { createContextInner } from "~/server/trpc/context";
import { appRouter } from "~/server/trpc/routers/_app";

/**
 * tRPC over the fetch adapter, plain JSON (no transformer) so that curl works.
 * @see https://trpc.io/docs/server/adapters/nextjs#route-handlers
 */
function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    async createContext({ resHeaders, info }) {
      const sessionId = (await cookies()).get(SESSION_COOKIE)?.value;
      return createContextInner({
        services: getServices(),
        sessionId: isSessionId(sessionId) ? sessionId : null,
        http: { requestHeaders: req.headers, responseHeaders: resHeaders, isBatch: info.isBatchCall },
      });
    },
    responseMeta({ errors }) {
      const retryAfter = Math.max(
        0,
        ...errors.map((error) => (error instanceof DomainError ? (error.retryAfterSeconds ?? 0) : 0)),
      );
      return retryAfter > 0 ? { headers: new Headers({ "Retry-After": String(retryAfter) }) } : {};
    },
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR" || error.code === "SERVICE_UNAVAILABLE") {
        logger.error({ err: error.cause ?? error, path }, "procedure failed");
      }
    },
  });
}

export { handler as GET, handler as POST };
