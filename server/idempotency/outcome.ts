import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { DomainError, isDomainErrorReason } from "../errors";

/**
 * A final outcome, as stored with a completed key and replayed to every
 * duplicate: the handler's data, or an error the handler meant as its answer.
 */
export type StoredOutcome =
  | { ok: true; data: unknown }
  | { ok: false; error: { code: TRPC_ERROR_CODE_KEY; message: string; reason?: string } };

/**
 * Errors that are answers: the same request would get the same error again, so
 * it is stored and replayed like a success (a declined card, an amount that
 * does not match the order). Everything else (a crash, a timeout, a lost lease,
 * 408/409/429) leaves the outcome unknown or worth retrying, and is never
 * stored. NOT_FOUND is not stored either: what is missing may yet appear (a
 * request creating it may still be in flight), and a request that names
 * nothing should leave nothing behind.
 */
const FINAL_ERROR_CODES: ReadonlySet<TRPC_ERROR_CODE_KEY> = new Set<TRPC_ERROR_CODE_KEY>([
  "BAD_REQUEST",
  "UNAUTHORIZED",
  "PAYMENT_REQUIRED",
  "FORBIDDEN",
  "METHOD_NOT_SUPPORTED",
  "PRECONDITION_FAILED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "UNPROCESSABLE_CONTENT",
  "PRECONDITION_REQUIRED",
]);

export function isFinalError(error: unknown): error is TRPCError {
  return error instanceof TRPCError && FINAL_ERROR_CODES.has(error.code);
}

/** Data as it travels: plain JSON, so the first response and every replay are byte-identical. */
export function successOutcome(data: unknown): StoredOutcome {
  return { ok: true, data: data === undefined ? null : JSON.parse(JSON.stringify(data)) };
}

export function errorOutcome(error: TRPCError): StoredOutcome {
  const reason = error instanceof DomainError ? error.reason : undefined;
  return { ok: false, error: { code: error.code, message: error.message, reason } };
}

/** Rebuilds the error a stored outcome describes, as the original handler threw it. */
export function storedError(error: Extract<StoredOutcome, { ok: false }>["error"]): TRPCError {
  return isDomainErrorReason(error.reason)
    ? new DomainError(error.reason, error.message)
    : new TRPCError({ code: error.code, message: error.message });
}

export function parseStoredOutcome(json: string): StoredOutcome {
  return JSON.parse(json) as StoredOutcome;
}
