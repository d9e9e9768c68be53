/** run-once: at most one side effect per idempotency key, on a SQL database, with no framework. See README.md. */
export { RunOnce } from "./run-once";
export type { RunRequest } from "./run-once";
export type { Execution, FinalErrors, Operation } from "./execution";
export { CallerGoneError, KeyInProgressError, KeyReusedError, LeaseLostError, RunOnceError } from "./errors";
export { DEFAULT_RUN_ONCE_SETTINGS } from "./settings";
export type { RunOnceSettings } from "./settings";
export { RUN_ONCE_OUTCOMES } from "./outcomes";
export type { RunOnceOutcome } from "./outcomes";
export type { RunOnceEvent, RunOnceObserver } from "./observer";
export type { Json, KeyScope, RunResult } from "./types";
export { fingerprint } from "./fingerprint";
