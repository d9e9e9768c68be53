import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { logger } from "service-kit/logger";
import type { Db } from "../db/client";
import { env } from "../env";
import { receiptSettings } from "./receipt-settings";
import { startReceiptWorker } from "./receipt-worker";
import type { WorkerHooks } from "./receipt-worker";

/**
 * Runs the receipt worker as the process it is in: its settings from the
 * environment, one sentence and exit code 1 when it cannot start (a broken
 * TTL rule, an unreachable broker), a clean close on SIGINT and SIGTERM.
 * `hooksOn` composes counter-examples in: the lab's, or a test's.
 */
export async function runWorkerProcess(hooksOn?: (db: Db) => WorkerHooks): Promise<void> {
  const worker = await Promise.resolve()
    .then(() =>
      startReceiptWorker(receiptSettings(process.env), resolveDatabaseUrl(env.DATABASE_URL), logger, hooksOn),
    )
    .catch((error: unknown) => {
      console.error((error as Error).message);
      process.exit(1);
    });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void worker.close().then(() => process.exit(0)));
  }
}
