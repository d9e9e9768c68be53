import type { RunOnce } from "run-once";
import type { Db, Tx } from "./db/client";
import type { Account } from "./account/accounted-run";
import type { PaymentProvider } from "./payment-provider/payment-provider";
import type { AppMetrics } from "./observability/app-metrics";
import type { MutationThrottle } from "./throttle/mutation-throttle";

/** The server's services: every procedure reaches them in its context, and domain code takes the part it needs. */
export interface Services {
  db: Db;
  provider: PaymentProvider;
  runOnce: RunOnce<Tx>;
  /** The server's own account of every run under a key and its provider calls (and the keys' replay counts): read by the order page. */
  account: Account;
  /** Keys the fingerprints of stored requests (an HMAC), so a stored one cannot be used to test guesses. */
  fingerprintSecret: () => Promise<string>;
  metrics: AppMetrics;
  /** Past this age of its first provider call, a payment attempt is only looked up, never charged again (env.ts). */
  redriveCutoffMs: number;
  /** Limits on mutations over HTTP; null: none (in-process tests). */
  throttle: MutationThrottle | null;
  /** The catch-up road (server/webhooks/catch-up.ts), where webhooks are configured. */
  catchUp?: { passNow(): Promise<number> } | null;
}

/** What the HTTP layer needs beyond the procedures' services. */
export interface HttpServices extends Services {
  sessionSecret: () => Promise<string>;
}

/** What the fault lab puts into the services where it is on (server/compose-lab.ts). */
export interface LabComposition {
  /** The payment provider as the lab bends it, around the shop's; `beforeStall` writes the account first. */
  provider(parts: {
    db: Db;
    provider: PaymentProvider;
    endpoint: { url: string; apiKey: string };
    beforeStall: () => Promise<void>;
  }): PaymentProvider;
  /** Whether the shop is down for an order: its webhook refuses the order's events. */
  shopDown(db: Db, orderId: string): Promise<boolean>;
}
