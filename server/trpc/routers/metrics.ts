import { router } from "../init";
import { publicProcedure } from "../procedures";
import { runOnceMetricsOutput } from "../schemas/metrics";

/** The same counters as /api/metrics, for the ledger page's live panel. */
export const metricsRouter = router({
  runOnce: publicProcedure.output(runOnceMetricsOutput).query(({ ctx }) => ctx.metrics.snapshot()),
});
