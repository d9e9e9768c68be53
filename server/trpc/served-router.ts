import type { AnyTRPCRouter } from "@trpc/server";
import { benchRouter } from "./routers/bench";
import { mergeRouters, router } from "./init";

/** The router a process serves: the app's (or the lab's, built on it), plus the bench baseline where asked (not in its type). */
export function servedRouter(base: AnyTRPCRouter, opts: { benchBaseline: boolean }): AnyTRPCRouter {
  return opts.benchBaseline ? mergeRouters(base, router({ bench: benchRouter })) : base;
}
