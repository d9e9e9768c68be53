import { z } from "zod";
import { milliseconds, parseEnvironment, unsetIfEmpty } from "service-kit/env";

const DAY_MS = 24 * 60 * 60 * 1000;

const settingsSchema = z.object({
  /** RabbitMQ (amqp://guest:guest@127.0.0.1:5672); unset, the embedded queue delivers from the outbox. */
  AMQP_URL: z.preprocess(unsetIfEmpty, z.url({ protocol: /^amqps?$/ }).optional()),
  RECEIPT_QUEUE: z.string().min(1).default("receipts"),
  /** How long after a payment its event may still be delivered: the message TTL, and the relay's horizon. */
  RECEIPT_REDELIVERY_WINDOW_MS: milliseconds(3 * DAY_MS),
  /** How long a receipt's run-once key is kept: it must outlive the redelivery window. */
  RECEIPT_KEY_TTL_MS: milliseconds(7 * DAY_MS),
  /** Deliveries a message gets before it goes to the dead-letter queue. */
  RECEIPT_MAX_DELIVERIES: z.coerce.number().int().min(1).default(5),
  /** Messages one consumer holds unacknowledged at a time. */
  RECEIPT_PREFETCH: z.coerce.number().int().min(1).default(10),
  /** Embedded queue: how long a delivery holds its row before it is redelivered, and how often it looks. */
  RECEIPT_VISIBILITY_MS: milliseconds(10_000),
  RECEIPT_POLL_MS: milliseconds(250),
  IDEMPOTENCY_LEASE_MS: milliseconds(10_000),
});

export type ReceiptSettings = z.infer<typeof settingsSchema>;

export const receiptSettings = (source: Record<string, string | undefined>): ReceiptSettings =>
  parseEnvironment(settingsSchema, source);

/** The guide's TTL rule: a key must outlive its message's redelivery; null when kept. */
export function retentionProblem(settings: ReceiptSettings): string | null {
  if (settings.RECEIPT_KEY_TTL_MS >= settings.RECEIPT_REDELIVERY_WINDOW_MS) return null;
  return (
    `RECEIPT_KEY_TTL_MS (${settings.RECEIPT_KEY_TTL_MS} ms) is shorter than the queue's redelivery window ` +
    `RECEIPT_REDELIVERY_WINDOW_MS (${settings.RECEIPT_REDELIVERY_WINDOW_MS} ms), and the guide says why that cannot start: ` +
    `"if a queue can redeliver a message for up to three days, a 24-hour key TTL reopens the double-execution window on day two".`
  );
}
