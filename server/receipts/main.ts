/**
 * The receipt worker's process, beside the shop (`npm start` starts it), so
 * that it can die between a receipt and its acknowledgement without taking
 * the shop down. A broken TTL rule or an unreachable broker stops it, and
 * with it the app, with one sentence. Where the lab is on, its switches can
 * make the worker kill itself (SIGKILL) between a receipt and its ack; `npm
 * start` starts it again, and the queue redelivers what it held.
 */
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { logger } from "service-kit/logger";
import { env, labEnabled } from "../env";
import { receiptSettings } from "./receipt-settings";
import { startReceiptWorker } from "./receipt-worker";

const die = async (): Promise<never> => {
  process.kill(process.pid, "SIGKILL");
  return new Promise<never>(() => undefined); // the signal ends the process before this settles
};

const worker = await Promise.resolve()
  .then(() =>
    startReceiptWorker(
      receiptSettings(process.env),
      resolveDatabaseUrl(env.DATABASE_URL),
      logger,
      labEnabled() ? die : undefined,
    ),
  )
  .catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void worker.close().then(() => process.exit(0)));
}
