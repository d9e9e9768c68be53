import { createCallerFactory, router } from "../init";
import { catalogRouter } from "./catalog";
import { ledgerRouter } from "./ledger";
import { metricsRouter } from "./metrics";
import { ordersRouter } from "./orders";
import { paymentsRouter } from "./payments";

export const appRouter = router({
  catalog: catalogRouter,
  orders: ordersRouter,
  payments: paymentsRouter,
  ledger: ledgerRouter,
  metrics: metricsRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process, with a context of the caller's making (tests, server code). */
export const createCaller = createCallerFactory(appRouter);
