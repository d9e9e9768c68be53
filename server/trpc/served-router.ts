import { labRouter } from "./routers/lab";
import { benchRouter } from "./routers/bench";
import { appRouter } from "./routers/_app";
import { mergeRouters, router } from "./init";

/** The demo's router: the app and the fault lab's procedures. Its type is what the lab's pages call. */
export const labAppRouter = mergeRouters(appRouter, router({ lab: labRouter }));
export type LabAppRouter = typeof labAppRouter;

/** The router a process serves: AppRouter, plus the lab and bench baseline where asked (not in its type). */
export function servedRouter(opts: { lab: boolean; benchBaseline: boolean }) {
  if (!opts.benchBaseline) return opts.lab ? labAppRouter : appRouter;
  return mergeRouters(opts.lab ? labAppRouter : appRouter, router({ bench: benchRouter }));
}
