/** One delivery of a message: its body as the queue holds it, and which delivery of it this is (1 the first). */
export interface Delivery {
  body: unknown;
  count: number;
}

/** Resolving acknowledges the delivery; throwing hands it back (dead-lettered after the last allowed). */
export type DeliveryHandler = (delivery: Delivery) => Promise<void>;

/** Where receipts' messages come from: RabbitMQ, or the embedded queue on the outbox. Both deliver at least once. */
export interface ReceiptQueue {
  start(handler: DeliveryHandler): Promise<void>;
  /** Stops taking deliveries, waits for those in hand, and lets go of the connection. */
  close(): Promise<void>;
}
