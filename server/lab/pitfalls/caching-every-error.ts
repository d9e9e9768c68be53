import type { FinalErrors } from "run-once";
import { asTrpcError } from "../../trpc/idempotency/errors";
import { trpcFinalErrors } from "../../trpc/idempotency/final-errors";

/** The pitfall "caching error responses forever": every error, a transient 503 too, is replayed. */
export const cachingEveryError: FinalErrors = {
  isFinal: () => true,
  // Stored as the client was first answered: the transient failure's 503.
  encode: (error) => trpcFinalErrors.encode(asTrpcError(error)),
  decode: (stored) => trpcFinalErrors.decode(stored),
};
