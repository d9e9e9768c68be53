import { TRPCClientError } from "@trpc/client";

/** Statuses a proxy or a restarting server answers with: nobody decided anything. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** No answer from the application (network, a server down): the page keeps its data and asks again. */
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
