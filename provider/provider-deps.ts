import type { RunOnce } from "run-once";
import type { ProviderDb, ProviderTx } from "./db/client";
import type { ProviderMetrics } from "./metrics";

/** What the provider's routes run on. */
export interface ProviderDeps {
  db: ProviderDb;
  runOnce: RunOnce<ProviderTx>;
  metrics: ProviderMetrics;
  /** Whether the test lab may set faults (POST /v1/test/faults/:order); off, the faults are never read. */
  lab: boolean;
  /** How long a "timeout" fault holds a request before running it. */
  timeoutHoldMs: number;
  /** Whether a webhook endpoint listens: only then are events written for it. */
  webhooks: boolean;
}
