import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/trpc/routers/_app";

/** The server's own account of an order's payment requests (orders.serverAccount). */
export type ServerAccount = inferRouterOutputs<AppRouter>["orders"]["serverAccount"];
export type ServerAttempt = ServerAccount["attempts"][number];
export type KeyStage = ServerAccount["keys"][number]["state"];
export type ProviderCall = ServerAccount["providerCalls"][number];
export type WebhookDelivery = ServerAccount["webhookDeliveries"][number];

/** The decisions that answered with an outcome: they say so in Idempotency-Decision. */
const DECIDED = new Set(["executed", "replayed", "coalesced", "taken_over", "expired"]);

/** The response headers the server sent with this answer, rebuilt from its account. */
export function responseHeadersOf(attempt: ServerAttempt): Array<[name: string, value: string]> {
  const headers: Array<[string, string]> = [["Run-Once-Request", attempt.id]];
  if (attempt.decision && DECIDED.has(attempt.decision))
    headers.push(["Idempotency-Decision", attempt.decision]);
  if (attempt.decision === "replayed" || attempt.decision === "coalesced") {
    headers.push(["Idempotent-Replayed", "true"]);
  }
  if (attempt.retryAfterSeconds !== null) headers.push(["Retry-After", String(attempt.retryAfterSeconds)]);
  if (attempt.keyExpiresAt !== null) {
    headers.push(["Idempotency-Key-Expires", new Date(attempt.keyExpiresAt).toUTCString()]);
  }
  return headers;
}

/** The body that was sent, with its key, as the server kept it. */
export function requestBodyOf(attempt: ServerAttempt): Record<string, unknown> {
  return { ...attempt.body, idempotencyKey: attempt.key };
}

const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The request again as curl, the body as sent (a payment method id, not secret): the session's cookie when given. */
export function curlOf(attempt: ServerAttempt, origin: string, sessionCookie: string | null): string {
  const body = requestBodyOf(attempt);
  return [
    ...(sessionCookie
      ? []
      : [
          "# SESSION: this browser's checkout_session cookie (HttpOnly: the browser's developer tools show it)",
        ]),
    `curl -i -X POST ${quoted(`${origin}/api/trpc/payments.charge`)} \\`,
    `  -b ${quoted(`checkout_session=${sessionCookie ?? "SESSION"}`)} \\`,
    `  -H 'content-type: application/json' -H ${quoted(`Idempotency-Key: ${attempt.key}`)} \\`,
    `  -d ${quoted(JSON.stringify(body))}`,
  ].join("\n");
}
