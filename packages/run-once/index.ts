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
export { SqlIdempotencyStore } from "./sql-store";
export type { SqlClient, SqlDatabase } from "./sql-store";
export { PostgresIdempotencyStore } from "./postgres-store";
export { PgDatabase, PgTransaction, TransactionAbortedError, TransactionTimeoutError } from "./pg-database";
export { PollingKeyWatcher } from "./key-watcher";
export { PostgresKeyWatcher } from "./postgres-key-watcher";
export { KeySweeper } from "./sweeper";
export { ATTEMPTS_KEPT_PER_KEY, AttemptRecorder } from "./attempt-journal";
export type { AttemptJournal, AttemptRecord, FoundKeyState } from "./attempt-journal";
export { SqlAttemptJournal } from "./sql-attempt-journal";
export { fingerprint } from "./fingerprint";
export { KEY_PATTERN, KEY_RULE, generationOf, isValidKey } from "./key";
export {
  DECISION_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  KEY_EXPIRES_HEADER,
  REPLAYED_HEADER,
  keyFromHeader,
} from "./http-headers";
export { RUN_ONCE_OUTCOMES, allOf } from "./observer";
export type { RunOnceEvent, RunOnceObserver, RunOnceOutcome } from "./observer";
