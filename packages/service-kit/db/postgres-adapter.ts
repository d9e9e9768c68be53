import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

/**
 * The adapter for an application's client: a pool sized for one small app
 * instance. A session the server drops (a restart, pg_terminate_backend) is
 * logged once, idle or in use: pg emits one or two errors per drop (the
 * server's FATAL, then the socket's end), and a client with no listener
 * would crash the process. The pool opens another; the query that lost it
 * fails (the error map's 503).
 */
export function postgresAdapter(url: string, logger: { warn(details: object, message: string): void }) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on("connect", (client) => {
    client.once("error", (error) => logger.warn({ err: error }, "database: a session was dropped"));
    client.on("error", () => undefined);
  });
  return new PrismaPg(pool, { disposeExternalPool: true });
}
