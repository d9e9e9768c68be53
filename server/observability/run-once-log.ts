import { createHash } from "node:crypto";
import type { Logger } from "service-kit/logger";
import type { RunOnceEvent, RunOnceObserver } from "run-once";

/** Keys and session ids are secrets of their callers: logs carry a short hash, enough to correlate. */
function redact(value: string): string {
  return createHash("sha256").update(value).digest("hex").slice(0, 16);
}

/** One structured log line per run-once decision. */
export class RunOnceLog implements RunOnceObserver {
  constructor(private readonly logger: Pick<Logger, "info">) {}

  observe(event: RunOnceEvent): void {
    this.logger.info(
      {
        procedure: event.scope.path,
        caller: redact(event.scope.caller),
        key: redact(event.scope.key),
        decision: event.outcome,
        durationMs: Math.round(event.durationMs * 10) / 10,
      },
      "run-once decision",
    );
  }
}
