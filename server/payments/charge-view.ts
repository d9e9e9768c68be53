import type { z } from "zod";
import type { LedgerEntry } from "../ledger/ledger";
import type { chargeOutput } from "../trpc/schemas/payments";

/** A charge as the API returns it. */
export type ChargeView = z.infer<typeof chargeOutput>;

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
