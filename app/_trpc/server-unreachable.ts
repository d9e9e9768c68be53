import { TRPCClientError } from "@trpc/client";

/** Statuses a proxy or a restarting server answers with: nobody decided anything. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/**
 * The request got no answer from the application: a network failure, a
 * server that is down or restarting. Such a failure says nothing about the
 * data, so the page keeps what it has and asks again; only an answer (a 404,
 * a refusal) may change what it shows.
 */
export function isServerUnreachable(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const status = (error.data as { httpStatus?: unknown } | undefined)?.httpStatus;
  return typeof status !== "number" || GATEWAY_STATUSES.has(status);
}

/** The server answered that the thing asked for does not exist (in this session). */
export function isNotFound(error: unknown): boolean {
  return (
    error instanceof TRPCClientError && (error.data as { code?: unknown } | undefined)?.code === "NOT_FOUND"
  );
}
