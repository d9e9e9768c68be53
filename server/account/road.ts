/** The roads that do work under a key, each run one record of the account. */
export const ROADS = [
  "client",
  "completer",
  "webhook",
  "catch-up",
  "receipt worker",
  "naive client",
] as const;
export type Road = (typeof ROADS)[number];

/** A road as a column stores it; null for what no road names. */
export function roadOf(stored: string | null): Road | null {
  return (ROADS as readonly (string | null)[]).includes(stored) ? (stored as Road) : null;
}

/** The roads that bring the provider's events: its webhook's deliveries, and the shop's own catch-up listing them. */
export const EVENT_ROADS = ["webhook", "catch-up"] as const satisfies readonly Road[];
export type EventRoad = (typeof EVENT_ROADS)[number];
