import Stripe from "stripe";

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
  const body = await bodyWithin(request, WEBHOOK_BODY_LIMIT_BYTES);
  const signature = request.headers.get("stripe-signature");
  if (!signature) throw new WebhookRefusal(400, "The delivery has no Stripe-Signature header.");
  try {
    return Stripe.webhooks.constructEvent(body, signature, secret);
  } catch (error) {
    // Forged, re-signed with another secret, outside the tolerance, or not JSON: the client says which.
    throw new WebhookRefusal(400, `The delivery was refused: ${(error as Error).message}`);
  }
}

/** The body as text, refused past the limit by its Content-Length or while it streams in. */
async function bodyWithin(request: Request, limit: number): Promise<string> {
  const tooLarge = () => new WebhookRefusal(413, `The delivery is over ${limit} bytes.`);
  if (Number(request.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      await reader!.cancel();
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
