import type Stripe from "stripe";
import { paymentIntentHandler } from "../record-payment-event";

/** A PaymentIntent's payment failed: the decline, as the event tells it (the provider keeps no record of it to fetch). */
export default paymentIntentHandler<Stripe.PaymentIntentPaymentFailedEvent>("decline", (_provider, event) => {
  const error = event.data.object.last_payment_error;
  return Promise.resolve({
    declined: {
      reason: error?.message ?? "The card was declined.",
      cardLast4: error?.payment_method?.card?.last4 ?? "",
    },
  });
});
