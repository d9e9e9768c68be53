/** How long a lost reply keeps the client waiting before the connection breaks. */
export const LOST_REPLY_AFTER_MS = 1_500;

/** A reply lost after commit: the head and first bytes go out, then the connection breaks. */
export function lostReply(text: string, reply: { status: number; headers: Headers }): Response {
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text.slice(0, 10)));
      setTimeout(() => controller.error(new Error("reply lost by the fault lab")), LOST_REPLY_AFTER_MS);
    },
  });
  return new Response(body, { status: reply.status, headers: reply.headers });
}
