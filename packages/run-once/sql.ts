/** The stores on SQL databases (SQLite, PostgreSQL), PostgreSQL's watcher, and the sweeper. */
export { SqlIdempotencyStore } from "./sql-store";
export type { SqlClient, SqlDatabase } from "./sql-store";
export { PostgresIdempotencyStore } from "./postgres-store";
export { PostgresKeyWatcher } from "./postgres-key-watcher";
export { KeySweeper } from "./sweeper";
