import { Connection } from "rabbitmq-client";
import type { Consumer, Publisher } from "rabbitmq-client";
import { redactPassword } from "service-kit/db/database-url";
import type { Logger } from "service-kit/logger";
import type { DeliveryHandler, ReceiptQueue } from "./queue";

interface RabbitQueueSettings {
  queue: string;
  prefetch: number;
  maxDeliveries: number;
  /** The message TTL: past it a message is dead-lettered, never delivered. */
  windowMs: number;
}

/** The broker did not answer at start: the app stops with this sentence. */
export class BrokerUnreachableError extends Error {}

/** A RabbitMQ quorum queue: the broker dead-letters a message past x-delivery-limit. */
export class RabbitQueue implements ReceiptQueue {
  #consumer: Consumer | undefined;

  private constructor(
    private readonly rabbit: Connection,
    private readonly publisher: Publisher,
    private readonly settings: RabbitQueueSettings,
    private readonly logger: Logger,
  ) {}

  static async connect(url: string, settings: RabbitQueueSettings, logger: Logger): Promise<RabbitQueue> {
    const rabbit = new Connection({ url, connectionTimeout: 5_000, retryLow: 500, retryHigh: 5_000 });
    rabbit.on("error", (error) => logger.warn({ err: error }, "RabbitMQ connection error"));
    try {
      await rabbit.onConnect(5_000);
      await rabbit.queueDeclare({ queue: deadLetterQueue(settings.queue), durable: true });
      await rabbit.queueDeclare(queueOptions(settings));
    } catch (error) {
      void rabbit.close(); // not awaited: a connection that never opened may never report closing
      const reason = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
      throw new BrokerUnreachableError(
        `The queue broker at ${redactPassword(url)} (AMQP_URL) cannot be reached: ${reason}.`,
        { cause: error },
      );
    }
    const publisher = rabbit.createPublisher({ confirm: true, maxAttempts: 3 });
    return new RabbitQueue(rabbit, publisher, settings, logger);
  }

  /** Publishes an event with what is left of its window as its expiration; resolves once the broker confirms it. */
  async publish(message: { id: string; body: unknown }, expiresInMs: number): Promise<void> {
    await this.publisher.send(
      {
        routingKey: this.settings.queue,
        messageId: message.id,
        durable: true,
        expiration: String(expiresInMs),
      },
      message.body,
    );
  }

  async start(handler: DeliveryHandler): Promise<void> {
    this.#consumer = this.rabbit.createConsumer(
      {
        queue: this.settings.queue,
        queueOptions: queueOptions(this.settings),
        qos: { prefetchCount: this.settings.prefetch },
        requeue: true,
      },
      // The quorum queue counts earlier deliveries in x-delivery-count; returning acknowledges, throwing requeues.
      (message) =>
        handler({ body: message.body, count: Number(message.headers?.["x-delivery-count"] ?? 0) + 1 }),
    );
    this.#consumer.on("error", (error) =>
      this.logger.warn({ err: error }, "delivery failed; it will be redelivered"),
    );
  }

  async close(): Promise<void> {
    await this.#consumer?.close();
    await this.publisher.close();
    await this.rabbit.close();
  }
}

const deadLetterQueue = (queue: string) => `${queue}.dead`;

function queueOptions(settings: RabbitQueueSettings) {
  return {
    queue: settings.queue,
    durable: true,
    arguments: {
      "x-queue-type": "quorum" as const,
      // Deliveries past the first that may fail before the broker dead-letters the message.
      "x-delivery-limit": settings.maxDeliveries - 1,
      "x-message-ttl": settings.windowMs,
      "x-dead-letter-exchange": "",
      "x-dead-letter-routing-key": deadLetterQueue(settings.queue),
    },
  };
}
