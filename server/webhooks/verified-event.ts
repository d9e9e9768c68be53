import Stripe from "stripe";
import { limitedBody } from "service-kit/http/limited-body";

/** A webhook delivery is at most this big: Stripe's events are a few kilobytes. */
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;

/** A delivery refused before anything is recorded (it is not the provider's), with its status and one sentence why. */
export class WebhookRefusal extends Error {
  override name = "WebhookRefusal";

  constructor(
    readonly status: 400 | 404 | 413,
    message: string,
  ) {
    super(message);
  }
}

/** The event, once Stripe's client checked its signature on the exact body. */
export async function verifiedEvent(request: Request, secret: string): Promise<Stripe.Event> {
  const tooLarge = () => new WebhookRefusal(413, `The delivery is over ${WEBHOOK_BODY_LIMIT_BYTES} bytes.`);
  const body = await new Response(limitedBody(request, WEBHOOK_BODY_LIMIT_BYTES, tooLarge)).text();
  const signature = request.headers.get("stripe-signature");
  if (!signature) throw new WebhookRefusal(400, "The delivery has no Stripe-Signature header.");
  try {
    return Stripe.webhooks.constructEvent(body, signature, secret);
  } catch (error) {
    // Forged, re-signed with another secret, outside the tolerance, or not JSON: the client says which.
    throw new WebhookRefusal(400, `The delivery was refused: ${(error as Error).message}`);
  }
}
