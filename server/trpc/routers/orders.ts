import { router } from "../init";
import { runOnceProcedure, sessionProcedure } from "../procedures";
import {
  getOrderInput,
  getOrderOutput,
  listOrdersOutput,
  placeOrderInput,
  placeOrderOutput,
} from "../../orders/schemas";
import { orderDetailsOf } from "../../orders/order-details";
import { findSessionOrder, orderWithItems, toOrderSummary } from "../../orders/order-view";
import { createOrder, priceCart } from "../../orders/place-order";
import { serverAccountOf } from "../../payments/server-account";
import { queueAccountOf, queueAccountOutput } from "../../receipts/queue-account";
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
    .query(({ ctx, input }) => orderDetailsOf(ctx.db, ctx.sessionId, input.orderId)),

  /** The server's own account of every run under one of the order's payment keys, and the keys' lifecycle. */
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
