import { RunOnce } from "run-once";
import { SqlIdempotencyStore } from "run-once/sql";
import type { RunOnceSettings } from "run-once";
import type { Db, Tx } from "../../db/client";
import { logger } from "service-kit/logger";
import { trpcFinalErrors } from "../../trpc/idempotency/final-errors";
import type { BrokenRule } from "../schemas";
import { cachingEveryError } from "./caching-every-error";
import { MemoryIdempotencyStore } from "./memory-store";

/** The longest timer Node keeps (24.8 days): no bound, in practice. */
const UNBOUNDED_WAIT_MS = 2 ** 31 - 1;

/** The run-once core with one broken part per rule, each otherwise as the shop composes its own. */
function brokenCores(db: Db, settings: RunOnceSettings): Record<BrokenRule, RunOnce<Tx>> {
  const store = new SqlIdempotencyStore<Tx>(db);
  const shop = { store, finalErrors: trpcFinalErrors, settings, logger };
  return {
    // The charge breaks this rule itself: it writes apart from commit() (see pitfall-charge.ts).
    "partial-commit": new RunOnce<Tx>(shop),
    "memory-store": new RunOnce<Tx>({ ...shop, store: new MemoryIdempotencyStore(db) }),
    "cached-error": new RunOnce<Tx>({ ...shop, finalErrors: cachingEveryError }),
    "unbounded-wait": new RunOnce<Tx>({ ...shop, settings: { ...settings, waitMs: UNBOUNDED_WAIT_MS } }),
  };
}

// One set per database handle, hence per server process: the memory store's Map is this process's.
const coresOf = new WeakMap<Db, Record<BrokenRule, RunOnce<Tx>>>();

export function brokenCore(db: Db, settings: RunOnceSettings, rule: BrokenRule): RunOnce<Tx> {
  const cores = coresOf.get(db) ?? brokenCores(db, settings);
  coresOf.set(db, cores);
  return cores[rule];
}
