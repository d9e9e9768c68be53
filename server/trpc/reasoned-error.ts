import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";

/** A tRPC error with a reason (in `error.data.reason`) and an optional Retry-After. */
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

  readonly retryAfterSeconds: number | undefined;
}
