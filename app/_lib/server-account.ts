import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/trpc/routers/_app";

/** The server's own account of an order's payment requests (orders.serverAccount). */
export type ServerAccount = inferRouterOutputs<AppRouter>["orders"]["serverAccount"];
export type ServerAttempt = ServerAccount["attempts"][number];
export type KeyStage = ServerAccount["keys"][number]["state"];

/** The decisions that answered with an outcome: they say so in Idempotency-Decision. */
const DECIDED = new Set(["executed", "replayed", "coalesced", "taken_over", "expired"]);

/** The response headers the server sent with this answer, rebuilt from its account. */
export function responseHeadersOf(attempt: ServerAttempt): Array<[name: string, value: string]> {
  const headers: Array<[string, string]> = [["Run-Once-Attempt", attempt.id]];
  if (DECIDED.has(attempt.decision)) headers.push(["Idempotency-Decision", attempt.decision]);
  if (attempt.decision === "replayed" || attempt.decision === "coalesced") {
    headers.push(["Idempotent-Replayed", "true"]);
  }
  if (attempt.retryAfterSeconds !== null) headers.push(["Retry-After", String(attempt.retryAfterSeconds)]);
  if (attempt.keyExpiresAt !== null) {
    headers.push(["Idempotency-Key-Expires", new Date(attempt.keyExpiresAt).toUTCString()]);
  }
  return headers;
}

/** The body that was sent, with its key, as the server kept it (a card number masked). */
export function requestBodyOf(attempt: ServerAttempt): Record<string, unknown> {
  return { ...attempt.body, idempotencyKey: attempt.key };
}

/** A masked card number in a kept body: `•••• 4242`. */
const MASKED_CARD = /^•••• (\d{4})$/;

/**
 * The request again, as a curl command against this origin, in the session's
 * cookie jar. A card number the server masked is asked for, never made up.
 */
export function curlOf(attempt: ServerAttempt, origin: string): string {
  const body = requestBodyOf(attempt);
  const masked = typeof body.cardNumber === "string" ? MASKED_CARD.exec(body.cardNumber) : null;
  if (masked) body.cardNumber = "CARD_NUMBER";
  const json = JSON.stringify(body).replaceAll("'", "'\\''");
  return [
    ...(masked
      ? [`# CARD_NUMBER: the card ending in ${masked[1]} (the server keeps only its last four digits)`]
      : []),
    "# -b jar: this browser's checkout_session cookie, in a cookie jar",
    `curl -i -b jar -X POST '${origin}/api/trpc/payments.charge' \\`,
    `  -H 'content-type: application/json' -H 'Idempotency-Key: ${attempt.key.replaceAll("'", "'\\''")}' \\`,
    `  -d '${json}'`,
  ].join("\n");
}
