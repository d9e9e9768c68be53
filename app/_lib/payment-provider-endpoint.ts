import { env } from "~/server/env";
import type { PaymentProviderEndpoint } from "./provider-payment-method";

/** Where browsers send cards, read from the server's environment at run time: new keys need a restart, not a build. */
export function paymentProviderEndpoint(): PaymentProviderEndpoint {
  return {
    url: env.PAYMENT_PROVIDER_PUBLIC_URL ?? env.PAYMENT_PROVIDER_URL,
    publishableKey: env.PAYMENT_PROVIDER_PUBLISHABLE_KEY,
  };
}
