/**
 * run-once: at most one side effect per idempotency key, on a SQL database,
 * with no framework. See README.md.
 */
export { RunOnce } from "./run-once";
export type { RunOnceOptions, RunRequest } from "./run-once";
export type { Completion, Execution, FinalErrors, Operation } from "./execution";
export {
  CallerGoneError,
  CommitMissingError,
  KeyInProgressError,
  KeyReusedError,
  LeaseLostError,
  RunOnceError,
} from "./errors";
export { DEFAULT_RUN_ONCE_SETTINGS } from "./settings";
export type { RunOnceSettings } from "./settings";
export type {
  Claim,
  ClaimResult,
  ClaimTerms,
  Decision,
  Json,
  KeyRecord,
  KeyScope,
  KeyState,
  KeyTally,
  KeyView,
  Logger,
  RunResult,
  StoredOutcome,
} from "./types";
export type { IdempotencyStore, KeyWatcher } from "./store";
export { fingerprint } from "./fingerprint";
export { RUN_ONCE_OUTCOMES, allOf } from "./observer";
export type { RunOnceEvent, RunOnceObserver, RunOnceOutcome } from "./observer";
