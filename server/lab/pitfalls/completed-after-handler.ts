import { RunOnce } from "run-once";
import type { Operation, RunRequest } from "run-once";

/**
 * The pitfall "releasing the key after a partial commit": the shop's core,
 * except that a key is completed once the handler returns, apart from what
 * the handler wrote. A handler that fails after its write leaves the write
 * and releases the key. The shop completes its keys in the side effect's own
 * transaction instead (Execution.commit).
 */
export class CompletedAfterHandler<Tx> extends RunOnce<Tx> {
  override run(request: RunRequest, operation: Operation<Tx, unknown>) {
    return super.run({ ...request, completion: "after-handler" }, operation);
  }
}
