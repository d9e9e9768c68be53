import type { Db } from "../db/client";
import type { PaymentProvider } from "../payment-provider/payment-provider";

const idAndAmount = ({ id, amountCents }: { id: string; amountCents: number }) => ({ id, amountCents });

/** Per order, the provider's charges against the shop's record (as ledger.reconciliation's output declares it). */
export async function reconcile(deps: { db: Db; provider: PaymentProvider }, orderIds: string[]) {
  const recorded = await deps.db.charge.findMany({
    where: { orderId: { in: orderIds } },
    select: { id: true, orderId: true, amountCents: true },
  });
  return Promise.all(
    orderIds.map(async (orderId) => {
      const providerCharges = (await deps.provider.chargesOf(orderId)).map(idAndAmount);
      const recordedCharges = recorded.filter((charge) => charge.orderId === orderId).map(idAndAmount);
      const recordedById = new Map(recordedCharges.map((charge) => [charge.id, charge]));
      const providerIds = new Set(providerCharges.map((charge) => charge.id));
      const problems = [
        ...providerCharges
          .filter((charge) => !recordedById.has(charge.id))
          .map((charge) => `the provider charged ${charge.id}, which the shop has no record of`),
        ...recordedCharges
          .filter((charge) => !providerIds.has(charge.id))
          .map((charge) => `the shop recorded ${charge.id}, which the provider does not have`),
        ...providerCharges
          .filter((charge) => {
            const mine = recordedById.get(charge.id);
            return mine !== undefined && mine.amountCents !== charge.amountCents;
          })
          .map(
            (charge) =>
              `${charge.id} is ${charge.amountCents} at the provider but ${recordedById.get(charge.id)?.amountCents} in the shop's record`,
          ),
      ];
      return { orderId, providerCharges, recordedCharges, problems };
    }),
  );
}
