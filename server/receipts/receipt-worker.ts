import { RunOnce } from "run-once";
import { runOnceStoreFor } from "service-kit/db/run-once-store";
import type { Logger } from "service-kit/logger";
import { Account } from "../account/accounted-run";
import { PrismaRequestJournal } from "../account/request-journal";
import { createDb } from "../db/client";
import type { Db, Tx } from "../db/client";
import { instanceName } from "../observability/instance-name";
import { EmbeddedQueue } from "./embedded-queue";
import { OutboxRelay } from "./outbox-relay";
import { RabbitQueue } from "./rabbitmq-queue";
import { receiptConsumer } from "./receipt-consumer";
import type { ConsumerHooks } from "./receipt-consumer";
import { retentionProblem } from "./receipt-settings";
import type { ReceiptSettings } from "./receipt-settings";

/** The worker's keys would expire inside the redelivery window: it refuses to start with this sentence. */
export class RetentionTooShortError extends Error {}

/** What the lab or a test composes into the worker, on its database: the consumer's hooks, a relay that publishes twice. */
export interface WorkerHooks {
  consumer?: ConsumerHooks;
  publishesTwice?(orderId: string): Promise<boolean>;
}

/** The relay (RabbitMQ only) and the consumer; throws before starting on a bad TTL or broker. */
export async function startReceiptWorker(
  settings: ReceiptSettings,
  databaseUrl: string,
  logger: Logger,
  hooksOn?: (db: Db) => WorkerHooks,
) {
  const problem = retentionProblem(settings);
  if (problem) throw new RetentionTooShortError(problem);
  const queueSettings = {
    prefetch: settings.RECEIPT_PREFETCH,
    maxDeliveries: settings.RECEIPT_MAX_DELIVERIES,
    windowMs: settings.RECEIPT_REDELIVERY_WINDOW_MS,
  };
  const rabbit = settings.AMQP_URL
    ? await RabbitQueue.connect(
        settings.AMQP_URL,
        { ...queueSettings, queue: settings.RECEIPT_QUEUE },
        logger,
      )
    : null;
  const db = createDb(databaseUrl);
  const hooks = hooksOn?.(db);
  const queue =
    rabbit ??
    new EmbeddedQueue(
      db,
      { ...queueSettings, visibilityMs: settings.RECEIPT_VISIBILITY_MS, pollMs: settings.RECEIPT_POLL_MS },
      logger,
      hooks?.publishesTwice,
    );
  const relay = rabbit
    ? new OutboxRelay(
        db,
        (message, expiresInMs) => rabbit.publish(message, expiresInMs),
        { windowMs: settings.RECEIPT_REDELIVERY_WINDOW_MS },
        logger,
        hooks?.publishesTwice,
      )
    : null;
  const keys = runOnceStoreFor<Tx>(databaseUrl, db, logger);
  const never = { isFinal: () => false };
  const account = new Account(new PrismaRequestJournal(db), {
    db,
    instance: instanceName(undefined),
    finalErrors: never,
    logger,
  });
  const runOnce = new RunOnce<Tx>({
    store: keys.store,
    watcher: keys.watcher,
    // Nothing a receipt fails with is final: every failure releases the key, and the message is redelivered.
    finalErrors: { ...never, encode: () => null, decode: () => new Error("not stored") },
    settings: { ttlMs: settings.RECEIPT_KEY_TTL_MS, leaseMs: settings.IDEMPOTENCY_LEASE_MS },
    logger,
  });
  await queue.start(
    receiptConsumer({
      db,
      runOnce,
      account,
      maxDeliveries: settings.RECEIPT_MAX_DELIVERIES,
      logger,
      hooks: hooks?.consumer,
    }),
  );
  relay?.start(settings.RECEIPT_POLL_MS);
  logger.info(
    { queue: rabbit ? `RabbitMQ ${settings.RECEIPT_QUEUE}` : "embedded (the outbox)" },
    "the receipt worker is running",
  );
  return {
    async close() {
      await relay?.stop();
      await queue.close();
      await account.flush();
      await keys.close();
      await db.$disconnect();
    },
  };
}
