/** How long a lost reply keeps the client waiting before the connection breaks. */
export const LOST_REPLY_AFTER_MS = 1_500;

/**
 * A reply that is lost on its way back, as the fault labs make one: the work
 * is done and committed, the client never hears of it, exactly the case a
 * timeout cannot tell from a lost request. The status, the headers and the
 * first bytes go out, then the connection breaks. (Breaking it before any
 * byte is sent is not enough: clients resend a request whose connection
 * closed before a response began, and the resent request is quietly replayed.)
 */
export function lostReply(text: string, reply: { status: number; headers: Headers }): Response {
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text.slice(0, 10)));
      setTimeout(() => controller.error(new Error("reply lost by the fault lab")), LOST_REPLY_AFTER_MS);
    },
  });
  return new Response(body, { status: reply.status, headers: reply.headers });
}
