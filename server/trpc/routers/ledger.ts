import { router } from "../init";
import { sessionProcedure } from "../procedures";
import { ledgerCountersOutput, ledgerEntriesOutput, ledgerSummaryOutput } from "../schemas/ledger";

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
    const [orders, keys] = await Promise.all([
      ctx.db.order.findMany({
        where: { sessionId: ctx.sessionId },
        include: {
          charges: { select: { amountCents: true } },
          attempts: { select: { key: true, status: true }, orderBy: { createdAt: "asc" } },
        },
        orderBy: { createdAt: "desc" },
      }),
      ctx.db.idempotencyKey.findMany({
        where: { scope: ctx.sessionId, path: "payments.charge" },
        select: { key: true, replayCount: true },
      }),
    ]);
    const replays = new Map(keys.map((key) => [key.key, key.replayCount]));
    const replaysOf = (attemptKeys: Array<{ key: string }>) =>
      attemptKeys.reduce((sum, attempt) => sum + (replays.get(attempt.key) ?? 0), 0);
    return orders.map((order) => ({
      orderId: order.id,
      totalCents: order.totalCents,
      status: order.status,
      paymentKey: order.paymentKey,
      attempts: order.attempts,
      chargeCount: order.charges.length,
      chargedCents: order.charges.reduce((sum, charge) => sum + charge.amountCents, 0),
      replayCount: replaysOf(order.attempts),
    }));
  }),

  /** The session's own counts (an empty session shows zeros), from its keys, charges and attempts. */
  counters: sessionProcedure.output(ledgerCountersOutput).query(async ({ ctx }) => {
    const [keys, charges, declinedAttempts] = await Promise.all([
      ctx.db.idempotencyKey.findMany({
        where: { scope: ctx.sessionId },
        select: { state: true, replayCount: true },
      }),
      ctx.db.charge.findMany({ where: { order: { sessionId: ctx.sessionId } }, select: { orderId: true } }),
      ctx.db.paymentAttempt.count({ where: { status: "DECLINED", order: { sessionId: ctx.sessionId } } }),
    ]);
    const chargedOrders = new Set(charges.map((charge) => charge.orderId));
    return {
      keysCompleted: keys.filter((key) => key.state === "COMPLETED").length,
      keysInProgress: keys.filter((key) => key.state === "IN_PROGRESS").length,
      answeredFromStore: keys.reduce((sum, key) => sum + key.replayCount, 0),
      charges: charges.length,
      extraCharges: charges.length - chargedOrders.size,
      declinedAttempts,
    };
  }),
});
