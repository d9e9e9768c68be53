import { router } from "../init";
import { runOnceProcedure, sessionProcedure } from "../procedures";
import {
  getOrderInput,
  getOrderOutput,
  listOrdersOutput,
  placeOrderInput,
  placeOrderOutput,
} from "../../orders/schemas";
import { findSessionOrder, orderWithItems, toOrderSummary } from "../../orders/order-view";
import { createOrder, priceCart } from "../../orders/place-order";
import { PAYMENT_KEYSPACE } from "../../payments/keyspace";
import { serverAccountOf } from "../../payments/server-account";
import { queueAccountOf, queueAccountOutput } from "../../receipts/queue-account";
import { viewKeys } from "../../keys/key-views";
import { serverAccountInput, serverAccountOutput } from "../../payments/server-account-schemas";

export const ordersRouter = router({
  /** Run-once on the form's submission key: a double-submit places one order. */
  place: runOnceProcedure(placeOrderInput, placeOrderOutput, { keyField: "submissionKey" }).mutation(
    async ({ ctx, input }) => {
      const items = await priceCart(ctx.db, input.items);
      return ctx.execution.commit((tx) => createOrder(tx, ctx.sessionId, items));
    },
  ),

  get: sessionProcedure
    .input(getOrderInput)
    .output(getOrderOutput)
    .query(async ({ ctx, input }) => {
      const order = await findSessionOrder(ctx.db, ctx.sessionId, input.orderId);
      const [items, charges, attempts, [paymentKey]] = await Promise.all([
        ctx.db.orderItem.findMany({ where: { orderId: order.id }, ...orderWithItems.items }),
        ctx.db.charge.findMany({ where: { orderId: order.id }, orderBy: { createdAt: "asc" } }),
        ctx.db.paymentAttempt.findMany({ where: { orderId: order.id }, orderBy: { createdAt: "asc" } }),
        viewKeys(ctx.db, { caller: ctx.sessionId, path: PAYMENT_KEYSPACE, keys: [order.paymentKey] }),
      ]);
      return {
        ...toOrderSummary({ ...order, items }),
        charges: charges.map((charge) => ({
          id: charge.id,
          amountCents: charge.amountCents,
          idempotencyKey: charge.idempotencyKey,
          cardLast4: charge.cardLast4,
          naive: charge.naive,
          madeBy: charge.madeBy,
          createdAt: charge.createdAt.toISOString(),
        })),
        attempts: attempts.map((attempt) => ({
          key: attempt.key,
          status: attempt.status,
          providerCalled: attempt.providerCalledAt !== null,
          cardLast4: attempt.cardLast4,
          declineReason: attempt.declineReason,
          createdAt: attempt.createdAt.toISOString(),
          settledAt: attempt.settledAt?.toISOString() ?? null,
          settledBy:
            attempt.settledBy === "client" || attempt.settledBy === "completer" ? attempt.settledBy : null,
        })),
        paymentKeyState: paymentKey?.state ?? "absent",
        paymentKeyLeaseExpiresAt:
          paymentKey?.state === "in_progress" ? paymentKey.lockedUntil.toISOString() : null,
      };
    }),

  /** The server's own account of every request with one of the order's payment keys, and the keys' lifecycle. */
  serverAccount: sessionProcedure
    .input(serverAccountInput)
    .output(serverAccountOutput)
    .query(({ ctx, input }) => serverAccountOf(ctx, input.orderId)),

  /** The receipt worker's own account of the order's payment event: publications, deliveries, acks. */
  queueAccount: sessionProcedure
    .input(getOrderInput)
    .output(queueAccountOutput)
    .query(async ({ ctx, input }) =>
      queueAccountOf(ctx.db, (await findSessionOrder(ctx.db, ctx.sessionId, input.orderId)).id),
    ),

  list: sessionProcedure.output(listOrdersOutput).query(async ({ ctx }) => {
    const orders = await ctx.db.order.findMany({
      where: { sessionId: ctx.sessionId },
      include: orderWithItems,
      orderBy: { createdAt: "desc" },
      take: 20,
    });
    return orders.map(toOrderSummary);
  }),
});
