import { createHmac } from "node:crypto";
import type { ProviderDb } from "./db/client";
import type { PaymentMethod } from "./db/generated/sqlite/client";
import { TEST_PAYMENT_METHODS } from "./test-cards";

/** The test PaymentMethods exist in every account from the start, as Stripe's do. */
const TEST_METHODS_CREATED_AT = new Date("2026-01-01T00:00:00Z");
const TEST_CARD_EXPIRY = { expMonth: 12, expYear: 2034 };

/** The same number gives the same fingerprint in one account and another in the next, as Stripe's card.fingerprint. */
export function cardFingerprint(account: string, cardNumber: string): string {
  return createHmac("sha256", account).update(cardNumber).digest("base64url").slice(0, 16);
}

/** One of the account's PaymentMethods, or one of the test ones; null if it has no such id. */
export async function findPaymentMethod(db: ProviderDb, account: string, id: string) {
  const test = TEST_PAYMENT_METHODS[id];
  if (test) {
    const card = { brand: test.brand, last4: test.number.slice(-4), ...TEST_CARD_EXPIRY };
    return {
      id,
      cardNumber: test.number,
      card: { ...card, fingerprint: cardFingerprint(account, test.number) },
      createdAt: TEST_METHODS_CREATED_AT,
    };
  }
  const row = await db.paymentMethod.findFirst({ where: { id, account } });
  return row && chargeableOf(row);
}

/** A stored PaymentMethod as the provider charges it: its card number never leaves the provider. */
export function chargeableOf(row: PaymentMethod) {
  const { id, cardNumber, brand, cardLast4: last4, expMonth, expYear, fingerprint, createdAt } = row;
  return { id, cardNumber, card: { brand, last4, expMonth, expYear, fingerprint }, createdAt };
}
