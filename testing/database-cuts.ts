import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

/**
 * Runs `work` while `lock` (statements run in one transaction, e.g. `LOCK
 * TABLE` or `SELECT ... FOR UPDATE`) is held on a PostgreSQL database, and
 * terminates every session of that database that waits on a lock meanwhile,
 * as pg_terminate_backend would cut them in an outage: whatever reaches the
 * locked rows has its connection cut mid-query, and nothing else does.
 */
export async function cutWhileLocked<T>(url: string, lock: string[], work: () => Promise<T>): Promise<T> {
  const locker = new pg.Client({ connectionString: url });
  // Out of the lock's transaction: in one, pg_stat_activity is read once and kept.
  const killer = new pg.Client({ connectionString: url });
  await Promise.all([locker.connect(), killer.connect()]);
  const lockerPid = (await locker.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
  await locker.query("BEGIN");
  for (const statement of lock) await locker.query(statement);
  let done = false;
  const cutting = (async () => {
    while (!done) {
      await killer.query(
        `SELECT pg_terminate_backend("pid") FROM pg_stat_activity
          WHERE "datname" = current_database() AND "wait_event_type" = 'Lock' AND "pid" <> $1`,
        [lockerPid],
      );
      await sleep(20);
    }
  })();
  try {
    return await work();
  } finally {
    done = true;
    await cutting;
    await locker.query("ROLLBACK");
    await Promise.all([locker.end(), killer.end()]);
  }
}

/** Every table of the database, locked: each statement of every session waits, and is cut. */
export const EVERY_TABLE = [
  `DO $$ DECLARE t text; BEGIN
     FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
       EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', t);
     END LOOP; END $$`,
];
