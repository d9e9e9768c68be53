/**
 * The procedure builders the routers start from, composed from the
 * middlewares in one place.
 */
import type { z } from "zod";
import { publicProcedure } from "./init";
import { requireSession } from "./middlewares/require-session";
import { runOnce } from "./run-once/middleware";
import type { RunOnceOptions } from "./run-once/middleware";
import { throttleMutations } from "./middlewares/throttle-mutations";

export { publicProcedure };

/** For procedures that read or write the caller's own orders; its mutations are throttled. */
export const sessionProcedure = publicProcedure.use(requireSession).use(throttleMutations);

/**
 * A mutation that runs at most once per idempotency key: `runOnceProcedure(input, output)`
 * then `.mutation(({ ctx }) => ctx.execution.commit(tx => ...))`. The run-once
 * middleware sits after the input parser (it fingerprints parsed input) and
 * inside the output parser (first responses and replays are parsed alike).
 */
export function runOnceProcedure<TInput extends z.ZodObject, TOutput extends z.ZodType>(
  input: TInput,
  output: TOutput,
  options?: RunOnceOptions,
) {
  return sessionProcedure.input(input).output(output).use(runOnce(options));
}
