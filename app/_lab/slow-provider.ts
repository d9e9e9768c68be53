/** The latency the lab's slow provider adds to every charge: long enough for a second request to arrive during the first. */
export const SLOW_PROVIDER_MS = 3_000;

/** How long the lab's provider holds its reply after charging: its webhook, sent meanwhile, reaches the shop first. */
export const WEBHOOK_FIRST_HOLD_MS = 3_000;
