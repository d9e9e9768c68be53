/** The card the demo pays with unless told otherwise: approved by the provider's test mode. */
export const APPROVED_TEST_CARD = "4242424242424242";
