/** The latency the lab's slow provider adds to every charge: long enough for a second request to arrive during the first. */
export const SLOW_PROVIDER_MS = 3_000;
