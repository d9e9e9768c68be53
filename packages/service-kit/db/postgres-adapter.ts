import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

/** A small pool; a dropped session is logged, as pg's errors without a listener would crash the process. */
export function postgresAdapter(url: string, logger: { warn(details: object, message: string): void }) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on("connect", (client) => {
    client.once("error", (error) => logger.warn({ err: error }, "database: a session was dropped"));
    client.on("error", () => undefined);
  });
  return new PrismaPg(pool, { disposeExternalPool: true });
}
