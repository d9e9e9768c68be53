import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import type { FinalErrors, Json } from "run-once";
import { toTrpcError } from "../error-mapping";
import { ReasonedError } from "../reasoned-error";

/** Errors that are answers, stored and replayed: 4xx but 408, 409 and 429; every 5xx rolls back. */
const FINAL_CODES: ReadonlySet<TRPC_ERROR_CODE_KEY> = new Set<TRPC_ERROR_CODE_KEY>([
  "BAD_REQUEST",
  "UNAUTHORIZED",
  "PAYMENT_REQUIRED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_SUPPORTED",
  "PRECONDITION_FAILED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "UNPROCESSABLE_CONTENT",
  "PRECONDITION_REQUIRED",
]);

interface StoredError {
  code: TRPC_ERROR_CODE_KEY;
  message: string;
  reason: string | null;
}

/** How the tRPC integration tells answers from failures (by their mapped codes), and stores and rebuilds them. */
export const trpcFinalErrors: FinalErrors = {
  isFinal: (error) => FINAL_CODES.has(toTrpcError(error).code),

  encode(error): Json {
    const trpcError = toTrpcError(error);
    return {
      code: trpcError.code,
      message: trpcError.message,
      reason: trpcError instanceof ReasonedError ? trpcError.reason : null,
    } satisfies StoredError;
  },

  decode(json): Error {
    const stored = json as unknown as StoredError;
    return stored.reason === null
      ? new TRPCError({ code: stored.code, message: stored.message })
      : new ReasonedError(stored.code, stored.reason, stored.message);
  },
};
