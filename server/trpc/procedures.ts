import type { z } from "zod";
import { publicProcedure } from "./init";
import { requireSession } from "./middlewares/require-session";
import { runOnce } from "./idempotency/middleware";
import type { RunOnceOptions } from "./idempotency/middleware";
import { throttleMutations } from "./middlewares/throttle-mutations";

export { publicProcedure };

/** For procedures that read or write the caller's own orders; its mutations are throttled. */
export const sessionProcedure = publicProcedure.use(requireSession).use(throttleMutations);

/** A mutation run at most once per key: after the input parser, inside the output parser. */
export function runOnceProcedure<TInput extends z.ZodObject, TOutput extends z.ZodType>(
  input: TInput,
  output: TOutput,
  options?: RunOnceOptions,
) {
  return sessionProcedure.input(input).output(output).use(runOnce(options));
}
