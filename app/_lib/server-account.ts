import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/trpc/routers/_app";
import { SERVER_DECISIONS } from "~/app/_trpc/try-log";

/** The server's own account of an order's payment runs (orders.serverAccount). */
export type ServerAccount = inferRouterOutputs<AppRouter>["orders"]["serverAccount"];
/** One run's record: a request, a completer run, a webhook's run. */
export type RequestView = ServerAccount["requests"][number];
export type KeyStage = ServerAccount["keys"][number]["state"];
export type ProviderCall = ServerAccount["providerCalls"][number];
export type WebhookDelivery = ServerAccount["webhookDeliveries"][number];
export type WebhookTry = NonNullable<ServerAccount["webhookTries"]>[number];

/** The decisions that answered with an outcome: they say so in Idempotency-Decision. */
const DECIDED = new Set<string>(SERVER_DECISIONS);

/** The response headers the server sent with this answer, rebuilt from its account. */
export function responseHeadersOf(request: RequestView): Array<[name: string, value: string]> {
  const headers: Array<[string, string]> = [["Run-Once-Request", request.id]];
  if (request.decision && DECIDED.has(request.decision))
    headers.push(["Idempotency-Decision", request.decision]);
  if (request.decision === "replayed" || request.decision === "coalesced") {
    headers.push(["Idempotent-Replayed", "true"]);
  }
  if (request.retryAfterSeconds !== null) headers.push(["Retry-After", String(request.retryAfterSeconds)]);
  if (request.keyExpiresAt !== null) {
    headers.push(["Idempotency-Key-Expires", new Date(request.keyExpiresAt).toUTCString()]);
  }
  return headers;
}

/** The body that was sent, with its key, as the server kept it. */
export function requestBodyOf(request: RequestView): Record<string, unknown> {
  return { ...request.body, idempotencyKey: request.key };
}

const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The request again as curl, the body as sent (a payment method id, not secret): the session's cookie when given. */
export function curlOf(request: RequestView, origin: string, sessionCookie: string | null): string {
  const body = requestBodyOf(request);
  return [
    ...(sessionCookie
      ? []
      : [
          "# SESSION: this browser's checkout_session cookie (HttpOnly: the browser's developer tools show it)",
        ]),
    `curl -i -X POST ${quoted(`${origin}/api/trpc/payments.charge`)} \\`,
    `  -b ${quoted(`checkout_session=${sessionCookie ?? "SESSION"}`)} \\`,
    `  -H 'content-type: application/json' -H ${quoted(`Idempotency-Key: ${request.key}`)} \\`,
    `  -d ${quoted(JSON.stringify(body))}`,
  ].join("\n");
}
