import type { FinalErrors } from "run-once";
import { asTrpcError } from "../../trpc/run-once/errors";
import { trpcFinalErrors } from "../../trpc/run-once/final-errors";

/**
 * The pitfall "caching error responses forever": every error is taken for
 * the operation's answer, a provider's transient 503 too, so it is stored and
 * replayed to every retry of the key. The shop's own (trpcFinalErrors) stores
 * only final answers: a decline, a request error.
 */
export const cachingEveryError: FinalErrors = {
  isFinal: () => true,
  // Stored as the client was first answered: the transient failure's 503.
  encode: (error) => trpcFinalErrors.encode(asTrpcError(error)),
  decode: (stored) => trpcFinalErrors.decode(stored),
};
