import type { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { KeyReusedError, RunOnceError } from "run-once";
import type { Execution, RunOnceOutcome, RunResult } from "run-once";
import { KEY_STATE_OF_DECISION } from "../../account/request-recorder";
import type { RequestEnding } from "../../account/request-recorder";
import { ReasonedError } from "../reasoned-error";
import { trpcFinalErrors } from "./final-errors";

/** The response header that names the server's record of this request, so the lab and the page can point at it. */
export const REQUEST_RECORD_HEADER = "Run-Once-Request";

/** What the account says of a request that got an outcome (a stored decline too). */
export function accountOfResult(result: RunResult, answered: TRPCError | null): RequestEnding {
  return {
    decision: result.decision,
    keyState: KEY_STATE_OF_DECISION[result.decision],
    generation: result.generation,
    status: answered ? getHTTPStatusCodeFromError(answered) : 200,
    retryAfterSeconds: null,
    keyExpiresAt: result.expiresAt,
  };
}

/** A failed request's account: how it ended, and the key it found, or the one it claimed (if any). */
export function accountOfFailure(
  error: unknown,
  answered: TRPCError,
  claimed: Pick<Execution<unknown>, "decision" | "generation"> | undefined,
): RequestEnding {
  const ended = outcomeOfFailure(error, claimed !== undefined);
  const claimedState = claimed ? KEY_STATE_OF_DECISION[claimed.decision] : null;
  const keyState =
    error instanceof KeyReusedError
      ? error.keyState
      : ended === "conflict" || ended === "coalesced"
        ? "in_progress"
        : claimedState;
  return {
    decision: ended,
    keyState,
    generation: claimed?.generation ?? null,
    status: getHTTPStatusCodeFromError(answered),
    retryAfterSeconds: answered instanceof ReasonedError ? (answered.retryAfterSeconds ?? null) : null,
    keyExpiresAt: null,
  };
}

/** As the core tells its observer: its own errors name themselves; a request that never claimed shared a failure it joined. */
function outcomeOfFailure(error: unknown, claimed: boolean): RunOnceOutcome {
  if (error instanceof RunOnceError) return error.outcome;
  if (!claimed) return "coalesced";
  return trpcFinalErrors.isFinal(error) ? "refused" : "released";
}
