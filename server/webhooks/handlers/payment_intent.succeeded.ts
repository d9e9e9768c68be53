import type Stripe from "stripe";
import { paymentIntentHandler } from "../record-payment-event";

/** A PaymentIntent succeeded: its charge, fetched from the provider, made by the request the event names. */
export default paymentIntentHandler<Stripe.PaymentIntentSucceededEvent>("charge", async (provider, event) => {
  const intent = event.data.object;
  const charged = await provider.chargeOfIntent(intent.id);
  if (!charged)
    throw new Error(`The provider shows no charge for ${intent.id}, which its event says succeeded.`);
  return { charged: { ...charged, requestId: event.request?.id ?? null } };
});
