import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";

/**
 * A tRPC error with a machine-readable reason, which the error formatter adds
 * to the body (`error.data.reason`), and an optional Retry-After, which the
 * HTTP handler sends. Made from the errors the server names by
 * error-mapping.ts, and rebuilt from a stored answer by final-errors.ts.
 */
export class ReasonedError extends TRPCError {
  constructor(
    code: TRPC_ERROR_CODE_KEY,
    readonly reason: string,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super({ code, message, cause: options.cause });
    this.name = "ReasonedError";
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** Sent as the Retry-After header: when a retry is worth making. */
  readonly retryAfterSeconds: number | undefined;
}
