import type { z } from "zod";
import type { Charge } from "../db/generated/sqlite/client";
import type { chargeOutput } from "./schemas";

/** A charge as the API returns it. */
export type ChargeView = z.infer<typeof chargeOutput>;

export function toChargeView(
  charge: Pick<Charge, "id" | "orderId" | "amountCents" | "cardLast4" | "createdAt">,
): ChargeView {
  return {
    chargeId: charge.id,
    orderId: charge.orderId,
    amountCents: charge.amountCents,
    status: "captured",
    cardLast4: charge.cardLast4,
    createdAt: charge.createdAt.toISOString(),
  };
}
