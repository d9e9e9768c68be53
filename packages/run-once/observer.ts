import type { RunOnceOutcome } from "./outcomes";
import type { KeyScope } from "./types";

export interface RunOnceEvent {
  scope: KeyScope;
  outcome: RunOnceOutcome;
  durationMs: number;
}

/** Told of every run-once request's end: logs and metrics listen. */
export interface RunOnceObserver {
  observe(event: RunOnceEvent): void;
}
