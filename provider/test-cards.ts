/** A test card as the provider's test mode treats it: approved unless it has a decline code. */
export interface TestCard {
  number: string;
  brand: string;
  declineCode?: DeclineCode;
}

/** Stripe's documented test cards, by number: every other valid number is approved as a Visa would be. */
const TEST_CARDS: readonly TestCard[] = [
  { number: "4242424242424242", brand: "visa" },
  { number: "5555555555554444", brand: "mastercard" },
  { number: "4000000000000002", brand: "visa", declineCode: "generic_decline" },
  { number: "4000000000009995", brand: "visa", declineCode: "insufficient_funds" },
];

/** Every test card's number: what a search for card numbers where none may be looks for. */
export const TEST_CARD_NUMBERS = TEST_CARDS.map((card) => card.number);

/** Stripe's test PaymentMethods: usable by id in every account, with no card number sent. */
export const TEST_PAYMENT_METHODS: Readonly<Record<string, TestCard>> = {
  pm_card_visa: TEST_CARDS[0]!,
  pm_card_mastercard: TEST_CARDS[1]!,
  pm_card_chargeDeclined: TEST_CARDS[2]!,
  pm_card_chargeDeclinedInsufficientFunds: TEST_CARDS[3]!,
};

/** What a decline says, by its decline code, in Stripe's words. */
export const DECLINE_MESSAGES = {
  generic_decline: "Your card was declined.",
  insufficient_funds: "Your card has insufficient funds.",
} as const;

export type DeclineCode = keyof typeof DECLINE_MESSAGES;

/** The card network, as the provider asks it to authorize a charge: a decline code refuses it. */
export type CardNetwork = (charge: {
  account: string;
  order: string | undefined;
  cardNumber: string;
}) => Promise<DeclineCode | undefined>;

/** Test mode's card network: Stripe's test cards decline as documented, every other card is approved. */
export const testCardNetwork: CardNetwork = async ({ cardNumber }) =>
  TEST_CARDS.find((card) => card.number === cardNumber)?.declineCode;
