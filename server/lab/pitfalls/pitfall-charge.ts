import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Execution } from "run-once";
import type { AccountedRun } from "../../account/accounted-run";
import type { Db, Tx } from "../../db/client";
import { DomainError } from "../../errors";
import { logger } from "service-kit/logger";
import { findSessionOrder } from "../../orders/order-view";
import type { PaymentProvider } from "../../payment-provider/payment-provider";
import { refuseMismatch, settleAttempt } from "../../payments/charge-order";
import { toChargeView } from "../../payments/charge-view";
import type { ChargeView } from "../../payments/charge-view";
import { writeCharge } from "../naive-charge";
import { spend } from "../switches";
import type { BrokenRule } from "../schemas";

/** How long a stuck execution holds its key: far past the shop's wait bound (5 s by default). */
const STUCK_MS = 20_000;

/** The shop's charge with its other guards off: only the key, as the broken rule's core keeps it. */
export async function pitfallCharge(
  deps: {
    db: Db;
    sessionId: string;
    execution: Execution<Tx>;
    provider: PaymentProvider;
    brokenRule: BrokenRule | null;
    run: AccountedRun;
  },
  input: { orderId: string; amountCents: number; paymentMethodId: string },
): Promise<ChargeView> {
  const order = await findSessionOrder(deps.db, deps.sessionId, input.orderId);
  refuseMismatch(order, deps.execution.key, input.amountCents);
  if (await spend(deps.db, order.id, "stuckExecutions")) {
    logger.warn({ orderId: order.id }, `lab: a pitfall-mode execution is stuck for ${STUCK_MS / 1000} s`);
    await sleep(STUCK_MS);
  }
  const providerKey = `pitfall_${randomUUID()}`;
  // Called before the transaction; its answer is thrown inside, for the core's final errors.
  const answered = await deps.provider
    .charge(
      {
        amountCents: order.totalCents,
        paymentMethodId: input.paymentMethodId,
        orderId: order.id,
        paymentKey: order.paymentKey,
        run: deps.run,
      },
      providerKey,
    )
    .then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error }),
    );
  const record = async (tx: Tx): Promise<ChargeView> => {
    if ("error" in answered) throw answered.error;
    const { answer } = answered;
    if ("declined" in answer) throw new DomainError("CARD_DECLINED", answer.declined.reason);
    const charge = await writeCharge(tx, answer.charged, {
      orderId: order.id,
      idempotencyKey: order.paymentKey,
      providerKey,
      recordedBy: deps.run.id,
    });
    // The order's attempt is settled with its charge, so the ledger does not show a paid order's attempt open.
    await settleAttempt(tx, order.paymentKey, {
      status: "SUCCEEDED",
      cardLast4: answer.charged.cardLast4,
      settledBy: deps.run.road,
    });
    return toChargeView(charge);
  };
  const partial = deps.brokenRule === "partial-commit";
  // Broken or not, the run's record is written with its charge (commit() writes it with the key's completion).
  const charged = partial
    ? await deps.db.$transaction(async (tx) => {
        const view = await record(tx);
        await deps.run.writtenIn(tx);
        return view;
      })
    : await deps.execution.commit(record);
  if (await spend(deps.db, order.id, "failuresAfterWrite")) {
    throw new Error("Lab fault: the charge was written, then publishing its payment.succeeded event failed.");
  }
  // The broken rule: the key completes after the handler, apart from the write it did.
  return partial ? deps.execution.commit(() => Promise.resolve(charged)) : charged;
}
