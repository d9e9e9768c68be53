import { getServices } from "~/server/services";
import { serveWebhook } from "~/server/webhooks/serve-webhook";

/** The payment provider's webhook endpoint (Stripe's, or the mock's): server/webhooks/serve-webhook.ts. */
export function POST(request: Request): Promise<Response> {
  return serveWebhook(getServices(), request);
}
