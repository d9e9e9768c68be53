import type { RunOnce } from "run-once";
import type { ProviderDb, ProviderTx } from "./db/client";
import type { ProviderLab } from "./lab/provider-lab";
import type { ProviderMetrics } from "./metrics";
import type { CardNetwork } from "./test-cards";

export interface ProviderDeps {
  db: ProviderDb;
  runOnce: RunOnce<ProviderTx>;
  metrics: ProviderMetrics;
  /** Who approves or declines a card: test mode's network, or the lab's around it. */
  cardNetwork: CardNetwork;
  /** The test lab's switches and the middleware that acts on them; without it, the faults are never read. */
  lab: ProviderLab | null;
  /** Whether a webhook endpoint listens: only then are events written for it. */
  webhooks: boolean;
}
