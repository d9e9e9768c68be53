import type { z } from "zod";
import type { chargeOutput } from "./schemas";

/** A charge as the API returns it. */
export type ChargeView = z.infer<typeof chargeOutput>;

export function toChargeView(charge: {
  id: string;
  orderId: string;
  amountCents: number;
  cardLast4: string;
  createdAt: Date;
}): ChargeView {
  return {
    chargeId: charge.id,
    orderId: charge.orderId,
    amountCents: charge.amountCents,
    status: "captured",
    cardLast4: charge.cardLast4,
    createdAt: charge.createdAt.toISOString(),
  };
}
