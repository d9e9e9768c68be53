import { labRouter } from "./routers/lab";
import { benchRouter } from "./routers/bench";
import { appRouter } from "./routers/_app";
import { mergeRouters, router } from "./init";

/** The demo's router: the app and the fault lab's procedures. Its type is what the lab's pages call. */
export const labAppRouter = mergeRouters(appRouter, router({ lab: labRouter }));
export type LabAppRouter = typeof labAppRouter;

/**
 * The router a process serves, assembled at its edge: the production
 * AppRouter, plus the lab where it is on (`npm run demo`, LAB_ENABLED=1), plus
 * the benchmark's baseline where `npm run bench` asks for it (BENCH_BASELINE=1).
 * Neither extra is part of AppRouter or its type.
 */
export function servedRouter(opts: { lab: boolean; benchBaseline: boolean }) {
  if (!opts.benchBaseline) return opts.lab ? labAppRouter : appRouter;
  return mergeRouters(opts.lab ? labAppRouter : appRouter, router({ bench: benchRouter }));
}
