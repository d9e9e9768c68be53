/** The hosted card field's postMessage protocol: each side checks the other's origin; no card crosses. */

/** Where the provider serves the field's page; its script is beside it, at the same path with `.js`. */
export const CARD_FIELD_PATH = "/elements/card-field";

/** The provider's test cards, by the names the merchant's buttons carry: only the field knows their numbers. */
export const TEST_CARDS = ["Approved", "Declined"] as const;
export type TestCard = (typeof TEST_CARDS)[number];

/** From the merchant's page to the field; `hello` asks it to say `ready` again (the page may have missed it). */
export type ToCardField =
  | { type: "hello" }
  | { type: "fill"; card: TestCard }
  | { type: "create"; id: number }
  | { type: "disable"; disabled: boolean };

/** From the field to the merchant's page: what the provider made of the card, never the card. */
export type FromCardField =
  | { type: "ready" }
  | { type: "height"; px: number }
  | { type: "brand"; brand: string | null }
  | { type: "created"; id: number; paymentMethod: string }
  | { type: "failed"; id: number; reason: "invalid" | "refused" | "no_answer"; message: string };

/** The field's address for one merchant page: its origin (the only one the field talks to) and publishable key. */
export function cardFieldUrl(providerUrl: string, merchantOrigin: string, publishableKey: string): string {
  const hash = new URLSearchParams({ origin: merchantOrigin, key: publishableKey });
  return `${providerUrl.replace(/\/+$/, "")}${CARD_FIELD_PATH}#${hash}`;
}

/** A message's data as one of `T`'s types, by its `type`; anything else (another script's message) is null. */
export function messageOf<T extends { type: string }>(data: unknown, types: ReadonlyArray<T["type"]>) {
  const type = (data as { type?: unknown } | null)?.type;
  return typeof type === "string" && types.includes(type) ? (data as T) : null;
}
