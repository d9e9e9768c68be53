import type { AnyTRPCRouter } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { DomainError } from "../errors";
import { logger } from "service-kit/logger";
import { limitedBody } from "service-kit/http/limited-body";
import { sessionIdFromCookies } from "../session";
import { createContextInner } from "./context";
import { toTrpcError } from "./error-mapping";
import type { HttpServices } from "../services-types";
import { ReasonedError } from "./reasoned-error";
import { appRouter } from "./routers/_app";

const TRPC_ENDPOINT = "/api/trpc";

/** The largest request body accepted: a batch of orders fits many times over. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The most calls one batch may carry; a larger one is refused whole (400) before any runs. */
export const MAX_BATCH_SIZE = 50;

/** tRPC over the fetch adapter, plain JSON (no transformer) so that curl works. */
export function handleTrpcRequest(
  request: Request,
  services: HttpServices,
  router: AnyTRPCRouter = appRouter,
): Promise<Response> {
  const req = limitBody(request);
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req,
    router,
    maxBatchSize: MAX_BATCH_SIZE,
    async createContext({ resHeaders, info }) {
      // The session's key may be read from the database: out of reach, that is the error map's 503 too.
      const secret = await services.sessionSecret().catch((error: unknown) => {
        throw toTrpcError(error);
      });
      return createContextInner({
        services,
        // The proxy's rule (proxy.ts): it has already swapped a cookie that fails it for a new one.
        sessionId: sessionIdFromCookies(req.headers.get("cookie"), secret),
        http: { requestHeaders: req.headers, responseHeaders: resHeaders, isBatch: info.isBatchCall },
      });
    },
    responseMeta({ errors }) {
      // Answers carry a session's orders and keys: no shared cache may keep one.
      const headers = new Headers({ "Cache-Control": "private, no-store" });
      const retryAfter = Math.max(
        0,
        ...errors.map((error) => (error instanceof ReasonedError ? (error.retryAfterSeconds ?? 0) : 0)),
      );
      if (retryAfter > 0) headers.set("Retry-After", String(retryAfter));
      return { headers };
    },
    onError({ error, path }) {
      // Internal errors are logged in full here; the client gets a fixed message (see init.ts).
      if (error.code === "INTERNAL_SERVER_ERROR" || error.code === "SERVICE_UNAVAILABLE") {
        logger.error({ err: error.cause ?? error, path }, "procedure failed");
      }
    },
  });
}

/** Caps the body before tRPC parses it, failing (413) as soon as it is over, without reading the rest. */
function limitBody(req: Request): Request {
  if (!req.body) return req;
  // tRPC reads the body before any procedure runs, so the procedures' mapping never sees this error.
  const tooLarge = () =>
    toTrpcError(
      new DomainError(
        "BODY_TOO_LARGE",
        `The request body is over ${MAX_BODY_BYTES} bytes; send smaller batches or fewer items.`,
      ),
    );
  const body = limitedBody(req, MAX_BODY_BYTES, tooLarge);
  return new Request(req, { body, duplex: "half" } as RequestInit);
}
