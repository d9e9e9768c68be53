import type { Tx } from "../db/client";

export interface ChargeRequest {
  orderId: string;
  amountCents: number;
  idempotencyKey: string;
  cardNumber: string;
  /** Sent by the lab's naive client, which makes a new key per attempt; the ledger marks it. */
  naive?: boolean;
}

export type Authorization =
  { approved: true; cardLast4: string } | { approved: false; cardLast4: string; declineReason: string };

export interface LedgerEntry {
  id: string;
  orderId: string;
  amountCents: number;
  idempotencyKey: string;
  cardLast4: string;
  naive: boolean;
  createdAt: Date;
}

/**
 * The payment service, in the shape of a card processor: `authorize` asks the
 * card network (slow, may decline, may fail) and has no side effect here;
 * `record` books the charge inside the transaction that completes the
 * payment's idempotency key. Swap it in the tRPC context to test.
 */
export interface Ledger {
  authorize(request: ChargeRequest): Promise<Authorization>;
  record(tx: Tx, request: ChargeRequest, authorization: Authorization): Promise<LedgerEntry>;
}
