import type { KeyScope, RunOnceEvent, RunOnceObserver } from "run-once";
import type { Db } from "../db/client";
import type { Logger } from "service-kit/logger";
import { WriteBehind } from "./write-behind";

/**
 * Counts the requests answered from a key (replayed or coalesced) into the
 * key's "replayCount", for the ledger, in batches (see WriteBehind): a storm
 * of duplicates costs a few writes, not one per request.
 */
export class ReplayCounter implements RunOnceObserver {
  readonly #batches: WriteBehind<{ scope: KeyScope; count: number }>;

  constructor(db: Db, logger: Pick<Logger, "warn">) {
    this.#batches = new WriteBehind(async (batch) => {
      for (const { scope, count } of batch) {
        await db.idempotencyKey
          .updateMany({
            where: { scope: scope.caller, path: scope.path, key: scope.key },
            data: { replayCount: { increment: count } },
          })
          .catch((error: unknown) => logger.warn({ err: error, count }, "could not record replays"));
      }
    });
  }

  observe({ scope, outcome }: RunOnceEvent): void {
    if (outcome !== "replayed" && outcome !== "coalesced") return;
    const id = JSON.stringify([scope.caller, scope.path, scope.key]);
    this.#batches.put(id, { scope, count: (this.#batches.pending(id)?.count ?? 0) + 1 });
  }

  flush(): Promise<void> {
    return this.#batches.flush();
  }
}
