import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { logger } from "service-kit/logger";
import type { Db } from "../db/client";
import { env } from "../env";
import { receiptSettings } from "./receipt-settings";
import { startReceiptWorker } from "./receipt-worker";
import type { WorkerHooks } from "./receipt-worker";

/** The receipt worker as this process: one sentence and exit 1 when it cannot start. */
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
