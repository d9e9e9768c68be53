import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { REQUEST_RECORD_HEADER } from "../account/accounted-run";
import type { Account } from "../account/accounted-run";
import type { Db, Tx } from "../db/client";
import { DomainError } from "../errors";
import { findSessionOrder } from "../orders/order-view";
import type { PaymentProvider, ProviderCharge } from "../payment-provider/payment-provider";
import { toChargeView } from "../payments/charge-view";
import type { ChargeView } from "../payments/charge-view";
import { NAIVE_CHARGE_PATH } from "../payments/keyspace";
import type { HttpExchange } from "../trpc/context";
import { toTrpcError } from "../trpc/error-mapping";

/** The counter-example: a charge with no run-once and the browser's key, for the naive client. */
export async function naiveCharge(
  deps: {
    db: Db;
    provider: PaymentProvider;
    sessionId: string;
    account: Pick<Account, "arrived">;
    http: HttpExchange | null;
  },
  input: { orderId: string; amountCents: number; attemptKey: string; paymentMethodId: string },
): Promise<ChargeView> {
  const order = await findSessionOrder(deps.db, deps.sessionId, input.orderId);
  // Recorded once the order is known to be the session's: the figure draws it beside the guarded requests.
  const { attemptKey, ...body } = input;
  const statusOf = (error: unknown) => getHTTPStatusCodeFromError(toTrpcError(error));
  const run = deps.account.arrived({
    road: "naive client",
    scope: { caller: order.id, path: NAIVE_CHARGE_PATH, key: attemptKey },
    fingerprint: "",
    body,
    answers: { ok: 200, error: statusOf },
  });
  if (deps.http && !deps.http.isBatch) deps.http.responseHeaders.set(REQUEST_RECORD_HEADER, run.id);
  const providerKey = `${attemptKey}/charge`;
  // No key was looked at: it ran, whatever it answered.
  try {
    const answer = await deps.provider.charge(
      { ...body, orderId: order.id, paymentKey: attemptKey, run },
      providerKey,
    );
    if ("declined" in answer) throw new DomainError("CARD_DECLINED", answer.declined.reason);
    const charge = await deps.db.$transaction(async (tx) => {
      const written = await writeCharge(tx, answer.charged, {
        orderId: order.id,
        idempotencyKey: attemptKey,
        providerKey,
        recordedBy: run.id,
        naive: true,
      });
      await run.writtenIn(tx);
      return toChargeView(written);
    });
    run.ended({ unkeyed: true });
    return charge;
  } catch (error) {
    run.ended({ unkeyed: true }, statusOf(error));
    throw error;
  }
}

/** The lab's charges as the ledger keeps them: the provider's charge, and its order paid. */
export async function writeCharge(
  tx: Tx,
  charged: ProviderCharge,
  row: { orderId: string; idempotencyKey: string; providerKey: string; recordedBy: string; naive?: boolean },
) {
  const { id, amountCents, requestId: providerRequestId, cardLast4 } = charged;
  const charge = await tx.charge.create({ data: { id, amountCents, providerRequestId, cardLast4, ...row } });
  await tx.order.update({ where: { id: row.orderId }, data: { status: "PAID" } });
  return charge;
}
