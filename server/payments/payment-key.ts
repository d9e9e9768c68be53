import { randomUUID } from "node:crypto";

/**
 * A payment attempt's idempotency key: made once, when the attempt opens (with
 * the order, or after a decline), stored on the order row, and sent by every
 * retry of that attempt from any tab or reload.
 */
export function newPaymentKey(): string {
  return `pay_${randomUUID()}`;
}
