import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { Db } from "../db/client";
import { DomainError } from "../errors";
import { findSessionOrder } from "../orders/order-view";
import type { PaymentProvider } from "../payment-provider/payment-provider";
import { toChargeView } from "../payments/charge-view";
import type { ChargeView } from "../payments/charge-view";
import { NAIVE_CHARGE_PATH } from "../payments/keyspace";
import type { RequestRecorder } from "../account/request-recorder";
import type { HttpExchange } from "../trpc/context";
import { toTrpcError } from "../trpc/error-mapping";
import { REQUEST_RECORD_HEADER } from "../trpc/idempotency/request-account";

/**
 * The counter-example, for the lab's naive client only: a charge with no
 * run-once, no check of the key against the order, no check that the order is
 * still unpaid, and a provider key taken from the browser's key. A client that
 * retries it with a new key per attempt pays twice whenever a reply is lost;
 * the ledger marks its charges, and the figure its requests.
 */
export async function naiveCharge(
  deps: {
    db: Db;
    provider: PaymentProvider;
    sessionId: string;
    account: { recorder: RequestRecorder; instance: string };
    http: HttpExchange | null;
  },
  input: { orderId: string; amountCents: number; attemptKey: string; paymentMethodId: string },
): Promise<ChargeView> {
  const order = await findSessionOrder(deps.db, deps.sessionId, input.orderId);
  // Recorded once the order is known to be the session's: the figure draws it beside the guarded requests.
  const { attemptKey, ...body } = input;
  const record = deps.account.recorder.arrived({
    scope: { caller: order.id, path: NAIVE_CHARGE_PATH, key: attemptKey },
    instance: deps.account.instance,
    fingerprint: "",
    body,
    sentBy: "naive client",
  });
  if (deps.http && !deps.http.isBatch) deps.http.responseHeaders.set(REQUEST_RECORD_HEADER, record.id);
  // No key was looked at: it ran, whatever it answered.
  const ended = (status: number) =>
    record.end({
      decision: "executed",
      status,
      keyState: null,
      generation: null,
      retryAfterSeconds: null,
      keyExpiresAt: null,
    });
  try {
    const charge = await chargeNaively(deps, order.id, record.id, input);
    ended(200);
    return charge;
  } catch (error) {
    ended(getHTTPStatusCodeFromError(toTrpcError(error)));
    throw error;
  }
}

async function chargeNaively(
  deps: { db: Db; provider: PaymentProvider },
  orderId: string,
  madeBy: string,
  input: { amountCents: number; attemptKey: string; paymentMethodId: string },
): Promise<ChargeView> {
  const providerKey = `${input.attemptKey}/charge`;
  const answer = await deps.provider.charge(
    { amountCents: input.amountCents, paymentMethodId: input.paymentMethodId, orderId },
    providerKey,
  );
  if ("declined" in answer) throw new DomainError("CARD_DECLINED", answer.declined.reason);
  return deps.db.$transaction(async (tx) => {
    const charge = await tx.charge.create({
      data: {
        id: answer.charged.id,
        orderId,
        amountCents: answer.charged.amountCents,
        idempotencyKey: input.attemptKey,
        providerKey,
        cardLast4: answer.charged.cardLast4,
        naive: true,
        madeBy,
      },
    });
    await tx.order.update({ where: { id: orderId }, data: { status: "PAID" } });
    return toChargeView(charge);
  });
}
