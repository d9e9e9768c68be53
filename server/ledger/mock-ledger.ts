import { randomUUID } from "node:crypto";
import type { Tx } from "../db/client";
import type { Authorization, ChargeRequest, Ledger, LedgerEntry } from "./ledger";

/**
 * Test cards, as card processors document them: every card is approved except
 * these, which decline with the given reason.
 */
export const DECLINING_CARDS: Readonly<Record<string, string>> = {
  "4000000000000002": "The card was declined.",
  "4000000000009995": "The card has insufficient funds.",
};

export const APPROVED_TEST_CARD = "4242424242424242";

/** A ledger that moves no money: approvals follow the test cards, charges are rows. */
export class MockLedger implements Ledger {
  async authorize(request: ChargeRequest): Promise<Authorization> {
    const cardLast4 = request.cardNumber.slice(-4);
    const declineReason = DECLINING_CARDS[request.cardNumber];
    return declineReason ? { approved: false, cardLast4, declineReason } : { approved: true, cardLast4 };
  }

  async record(tx: Tx, request: ChargeRequest, authorization: Authorization): Promise<LedgerEntry> {
    return tx.charge.create({
      data: {
        id: `ch_${randomUUID()}`,
        orderId: request.orderId,
        amountCents: request.amountCents,
        idempotencyKey: request.idempotencyKey,
        cardLast4: authorization.cardLast4,
        naive: request.naive ?? false,
      },
    });
  }
}
