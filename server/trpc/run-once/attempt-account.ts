import type { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { CallerGoneError, KeyInProgressError, KeyReusedError, LeaseLostError } from "~/packages/run-once";
import type { AttemptDecision, AttemptRecord, Decision, FoundKeyState, RunResult } from "~/packages/run-once";
import { ReasonedError } from "../reasoned-error";

/** The response header that names the server's record of this request, so the lab and the page can point at it. */
export const ATTEMPT_ID_HEADER = "Run-Once-Attempt";

/** What the adapter adds to the record of a request, from how the core and the handler answered it. */
export type AttemptAccount = Pick<
  AttemptRecord,
  "decision" | "keyState" | "generation" | "status" | "retryAfterSeconds" | "keyExpiresAt"
>;

/** The grid's row that each decision with an outcome answered from. */
const KEY_STATE_OF_DECISION: Record<Decision, FoundKeyState> = {
  executed: "absent",
  expired: "expired",
  taken_over: "in_progress",
  replayed: "completed",
  coalesced: "in_progress",
};

/** What the account says of a request that got an outcome (a stored decline too). */
export function accountOfResult(result: RunResult, answered: TRPCError | null): AttemptAccount {
  return {
    decision: result.decision as AttemptDecision,
    keyState: KEY_STATE_OF_DECISION[result.decision],
    generation: result.generation,
    status: answered ? getHTTPStatusCodeFromError(answered) : 200,
    retryAfterSeconds: null,
    keyExpiresAt: result.expiresAt,
  };
}

/**
 * What the account says of a request that failed: the core's refusals by
 * their error; a failure of an execution this request claimed by how it
 * claimed the key (a 5xx released it, anything else was a refusal); and a
 * failure it did not claim, the execution it joined.
 */
export function accountOfFailure(
  error: unknown,
  answered: TRPCError,
  claimed: { decision: Decision; generation: string } | undefined,
): AttemptAccount {
  const status = getHTTPStatusCodeFromError(answered);
  const retryAfterSeconds = answered instanceof ReasonedError ? (answered.retryAfterSeconds ?? null) : null;
  const claimedState = claimed ? KEY_STATE_OF_DECISION[claimed.decision] : null;
  const of = (decision: AttemptDecision, keyState: FoundKeyState | null): AttemptAccount => ({
    decision,
    keyState,
    generation: claimed?.generation ?? null,
    status,
    retryAfterSeconds,
    keyExpiresAt: null,
  });
  if (error instanceof KeyInProgressError) return of("conflict", "in_progress");
  if (error instanceof KeyReusedError) return of("mismatch", error.keyState);
  if (error instanceof LeaseLostError) return of("lease_lost", claimedState);
  if (error instanceof CallerGoneError) return of("abandoned", claimedState);
  if (!claimed) return of("coalesced", "in_progress");
  return of(status >= 500 ? "released" : "refused", claimedState);
}
