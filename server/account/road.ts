/**
 * The roads that do work under a key, each run of them one record of the account: the customer's request,
 * the background completer, a delivery of the provider's webhook, the receipt worker, and the lab's naive
 * client (no run-once). The ledger's settledBy, a record's sentBy, the routers' outputs and the story all
 * name them so.
 */
export const ROADS = ["client", "completer", "webhook", "receipt worker", "naive client"] as const;
export type Road = (typeof ROADS)[number];

/** A road as a column stores it; null for what no road names. */
export function roadOf(stored: string | null): Road | null {
  return (ROADS as readonly (string | null)[]).includes(stored) ? (stored as Road) : null;
}
