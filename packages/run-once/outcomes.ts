/** Every way a run-once request can end, one vocabulary from the store to the page: decisions, then refusals. */
export const RUN_ONCE_OUTCOMES = [
  "executed", // claimed an absent key and ran the operation
  "replayed", // found the key completed and returned its stored outcome
  "coalesced", // joined an execution in flight in this process and shared its outcome
  "taken_over", // found a key in progress whose owner was gone, took it and ran
  "expired", // found a completed key past its retention, treated it as absent and ran
  "conflict", // still in progress past the wait bound
  "mismatch", // the key was used with another body
  "refused", // the operation refused before any write: nothing stored, the key freed
  "released", // a failure before commit freed the key
  "lease_lost", // the attempt was fenced off
  "abandoned", // the caller went away
] as const;

export type RunOnceOutcome = (typeof RUN_ONCE_OUTCOMES)[number];

/** What the server decided for a request that got an outcome. */
export type Decision = Extract<
  RunOnceOutcome,
  "executed" | "replayed" | "coalesced" | "taken_over" | "expired"
>;
