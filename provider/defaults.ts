/** The provider's embedded default database: a SQLite file beside the shop's, so the demo needs no setup. */
export const PROVIDER_DEFAULT_DATABASE_URL = "file:./data/provider.db";

/** Where `npm start` runs the provider unless PAYMENT_PROVIDER_URL points at one already running. */
export const PROVIDER_DEFAULT_PORT = 4010;

/** How long the lab's "timeout" fault holds a request: past the shop's per-try timeout (8 s). */
export const PROVIDER_DEFAULT_TIMEOUT_HOLD_MS = 9_000;

/** How long the provider retries an undelivered webhook event: three days, as Stripe does. */
export const WEBHOOK_RETRY_WINDOW_DEFAULT_MS = 3 * 24 * 60 * 60 * 1000;

/** How long the provider keeps its events (GET /v1/events): 30 days, as Stripe does. */
export const EVENT_RETENTION_DEFAULT_MS = 30 * 24 * 60 * 60 * 1000;
