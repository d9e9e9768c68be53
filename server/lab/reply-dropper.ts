import { chargeOutput } from "../trpc/schemas/payments";
import type { Db } from "../db/client";
import { spend } from "./switches";

/** How long a lost reply keeps the client waiting before the connection breaks. */
export const LOST_REPLY_AFTER_MS = 1_500;

/**
 * Wraps the API handler where the lab is on: loses the reply of a committed
 * charge when its order's lab says so. The server did the work, the client
 * never hears of it, exactly the case a timeout cannot tell from a lost
 * request. The order is read from the reply, that is from the caller's own
 * charge as the server validated and committed it, never from the raw
 * request. The headers and the first bytes go out, then the connection
 * breaks. (Breaking it before any byte is sent is not enough: browsers resend
 * a request whose connection closed before a response began, and the resent
 * request is quietly replayed.)
 */
export function losingReplies(db: Db, handle: (request: Request) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    const reply = await handle(request);
    if (request.method !== "POST" || !reply.ok) return reply;
    const text = await reply.text();
    const orderId = chargedOrderOf(text);
    if (!orderId || !(await spend(db, orderId, "dropReplies"))) return new Response(text, reply);
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text.slice(0, 10)));
        setTimeout(() => controller.error(new Error("reply dropped by the fault lab")), LOST_REPLY_AFTER_MS);
      },
    });
    return new Response(body, { status: reply.status, headers: reply.headers });
  };
}

/** The order a single call's reply says was charged, if the reply is a charge. */
function chargedOrderOf(text: string): string | null {
  try {
    const parsed = chargeOutput.safeParse((JSON.parse(text) as { result?: { data?: unknown } }).result?.data);
    return parsed.success ? parsed.data.orderId : null;
  } catch {
    return null;
  }
}
