import type { LedgerEntry } from "../ledger/ledger";

/** A charge as the API returns it. */
export interface ChargeView {
  chargeId: string;
  orderId: string;
  amountCents: number;
  status: "captured";
  cardLast4: string;
  createdAt: string;
}

export function toChargeView(entry: LedgerEntry): ChargeView {
  return {
    chargeId: entry.id,
    orderId: entry.orderId,
    amountCents: entry.amountCents,
    status: "captured",
    cardLast4: entry.cardLast4,
    createdAt: entry.createdAt.toISOString(),
  };
}
