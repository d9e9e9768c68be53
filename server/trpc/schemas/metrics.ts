import { z } from "zod";
import { RUN_ONCE_OUTCOMES } from "run-once";

export const runOnceMetricsOutput = z.object({
  outcomes: z.record(z.enum(RUN_ONCE_OUTCOMES), z.number()),
  coalescedWait: z.object({ count: z.number(), sumSeconds: z.number() }),
});
