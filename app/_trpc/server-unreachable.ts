import { TRPCClientError } from "@trpc/client";

/** Statuses a proxy or a restarting server answers with: nobody decided anything. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** No answer from the application (network, a server down): the page keeps its data and asks again. */
export function isServerUnreachable(error: unknown): boolean {
  const status = statusOf(error);
  return status === null || GATEWAY_STATUSES.has(status ?? 0);
}

/** No HTTP answer at all: the query client's to retry, not the links' (they retry answers). */
export const isUnanswered = (error: unknown) => statusOf(error) === null;

/** The call's HTTP status; null when none came back; undefined for what is not a tRPC client error. */
export function statusOf(error: unknown): number | null | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const status = (error.data as { httpStatus?: unknown } | undefined)?.httpStatus;
  return typeof status === "number" ? status : null;
}

/** The server answered that the thing asked for does not exist (in this session). */
export function isNotFound(error: unknown): boolean {
  return (
    error instanceof TRPCClientError && (error.data as { code?: unknown } | undefined)?.code === "NOT_FOUND"
  );
}
