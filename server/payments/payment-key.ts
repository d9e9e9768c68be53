import { randomUUID } from "node:crypto";

/** A payment attempt's key: made once when the attempt opens, stored on the order, sent by every retry. */
export function newPaymentKey(): string {
  return `pay_${randomUUID()}`;
}
