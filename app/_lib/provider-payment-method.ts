/** Stripe's documented test payment method for 4242 4242 4242 4242: it exists at the provider without a card field. */
export const TEST_PAYMENT_METHOD = "pm_card_visa";

/** The provider's public URL, which serves the card field's frame, and the shop's publishable key, given by the page at run time. */
export interface PaymentProviderEndpoint {
  url: string;
  publishableKey: string;
}
