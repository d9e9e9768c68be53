import { PAYMENT_KEYSPACE } from "../../payments/keyspace";
import { reconcile } from "../../payments/reconcile";
import { mailboxOf, mailboxOutput } from "../../receipts/mailbox";
import { tallyKeys, viewKeys } from "../../keys/key-views";
import { router } from "../init";
import { sessionProcedure } from "../procedures";
import {
  ledgerCountersOutput,
  ledgerEntriesOutput,
  ledgerSummaryOutput,
  reconciliationOutput,
} from "../schemas/ledger";

/** The caller's part of the ledger: every charge of the session's orders. */
export const ledgerRouter = router({
  entries: sessionProcedure.output(ledgerEntriesOutput).query(async ({ ctx }) => {
    const charges = await ctx.db.charge.findMany({
      where: { order: { sessionId: ctx.sessionId } },
      orderBy: { createdAt: "desc" },
    });
    return charges.map((charge) => ({ ...charge, createdAt: charge.createdAt.toISOString() }));
  }),

  summary: sessionProcedure.output(ledgerSummaryOutput).query(async ({ ctx }) => {
    const orders = await ctx.db.order.findMany({
      where: { sessionId: ctx.sessionId },
      include: {
        charges: { select: { amountCents: true } },
        attempts: { select: { key: true, status: true }, orderBy: { createdAt: "asc" } },
      },
      orderBy: { createdAt: "desc" },
    });
    const attemptKeys = orders.flatMap((order) => order.attempts.map((attempt) => attempt.key));
    const keys = await viewKeys(ctx.db, { caller: ctx.sessionId, path: PAYMENT_KEYSPACE, keys: attemptKeys });
    const replays = new Map(keys.map((key) => [key.key, key.replayCount]));
    return orders.map((order) => ({
      orderId: order.id,
      totalCents: order.totalCents,
      status: order.status,
      paymentKey: order.paymentKey,
      attempts: order.attempts,
      chargeCount: order.charges.length,
      chargedCents: order.charges.reduce((sum, charge) => sum + charge.amountCents, 0),
      replayCount: order.attempts.reduce((sum, attempt) => sum + (replays.get(attempt.key) ?? 0), 0),
    }));
  }),

  /** The receipts of the session's last paid orders, sent by the receipt worker (server/receipts/). */
  mailbox: sessionProcedure.output(mailboxOutput).query(({ ctx }) => mailboxOf(ctx.db, ctx.sessionId)),

  /** The session's last orders, reconciled with the payment provider's charges. */
  reconciliation: sessionProcedure.output(reconciliationOutput).query(async ({ ctx }) => {
    const orders = await ctx.db.order.findMany({
      where: { sessionId: ctx.sessionId },
      select: { id: true },
      orderBy: { createdAt: "desc" },
      take: 20,
    });
    return reconcile(
      ctx,
      orders.map((order) => order.id),
    );
  }),

  /** The session's own counts (an empty session shows zeros), from its keys, charges and attempts. */
  counters: sessionProcedure.output(ledgerCountersOutput).query(async ({ ctx }) => {
    const [keys, charges, declinedAttempts] = await Promise.all([
      tallyKeys(ctx.db, ctx.sessionId),
      ctx.db.charge.findMany({ where: { order: { sessionId: ctx.sessionId } }, select: { orderId: true } }),
      ctx.db.paymentAttempt.count({ where: { status: "DECLINED", order: { sessionId: ctx.sessionId } } }),
    ]);
    const chargedOrders = new Set(charges.map((charge) => charge.orderId));
    return {
      keysCompleted: keys.completed,
      keysInProgress: keys.inProgress,
      answeredFromStore: keys.replays,
      charges: charges.length,
      extraCharges: charges.length - chargedOrders.size,
      declinedAttempts,
    };
  }),
});
