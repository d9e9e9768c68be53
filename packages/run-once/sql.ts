/** The stores on SQL databases (SQLite, PostgreSQL), their watchers and the sweeper. */
export { SqlIdempotencyStore } from "./sql-store";
export type { SqlClient, SqlDatabase } from "./sql-store";
export { PostgresIdempotencyStore } from "./postgres-store";
export { PostgresKeyWatcher } from "./postgres-key-watcher";
export { KeySweeper } from "./sweeper";
export { ATTEMPTS_KEPT_PER_KEY, AttemptRecorder } from "./attempt-journal";
export type { AttemptJournal, AttemptRecord, FoundKeyState } from "./attempt-journal";
export { SqlAttemptJournal } from "./sql-attempt-journal";
export { PgDatabase, PgTransaction, TransactionAbortedError, TransactionTimeoutError } from "./pg-database";
