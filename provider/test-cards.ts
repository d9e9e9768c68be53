/**
 * The provider's test cards, as card processors document them: every card is
 * approved except these, which decline with the given reason.
 */
export const DECLINING_CARDS: Readonly<Record<string, string>> = {
  "4000000000000002": "The card was declined.",
  "4000000000009995": "The card has insufficient funds.",
};
