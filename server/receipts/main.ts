/**
 * The receipt worker's process, beside the shop (`npm start` starts it), so
 * that it can die between a receipt and its acknowledgement without taking
 * the shop down. A broken TTL rule or an unreachable broker stops it, and
 * with it the app, with one sentence.
 */
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { logger } from "service-kit/logger";
import { env } from "../env";
import { receiptSettings } from "./receipt-settings";
import { startReceiptWorker } from "./receipt-worker";

const worker = await Promise.resolve()
  .then(() => startReceiptWorker(receiptSettings(process.env), resolveDatabaseUrl(env.DATABASE_URL), logger))
  .catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void worker.close().then(() => process.exit(0)));
}
