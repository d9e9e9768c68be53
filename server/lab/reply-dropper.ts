import type { Db } from "../db/client";
import { spend } from "./switches";

/** Procedures whose committed replies the lab can lose. */
const DROPPABLE = new Set(["payments.charge", "lab.naiveCharge"]);

/** How long a lost reply keeps the client waiting before the connection breaks. */
export const LOST_REPLY_AFTER_MS = 1_500;

/**
 * Loses the reply of a committed charge when the order's lab says so: the
 * server did the work, the client never hears of it, exactly the case a
 * timeout cannot tell from a lost request. The headers and the first bytes go
 * out, then the connection breaks. (Breaking it before any byte is sent is not
 * enough: browsers resend a request whose connection closed before a response
 * began, and the resent request is quietly replayed.)
 */
export async function dropReplyIfAsked(db: Db, orderId: string | null, path: string, reply: Response) {
  if (!orderId || !DROPPABLE.has(path) || !reply.ok) return reply;
  if (!(await spend(db, orderId, "dropReplies"))) return reply;
  const text = await reply.text();
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text.slice(0, 10)));
      setTimeout(() => controller.error(new Error("reply dropped by the fault lab")), LOST_REPLY_AFTER_MS);
    },
  });
  return new Response(body, { status: reply.status, headers: reply.headers });
}

/** The order a non-batched charge call is about, read from a copy of its body. */
export async function orderIdOf(req: Request, path: string): Promise<string | null> {
  if (!DROPPABLE.has(path) || req.method !== "POST") return null;
  const body: unknown = await req
    .clone()
    .json()
    .catch(() => null);
  const orderId = (body as { orderId?: unknown } | null)?.orderId;
  return typeof orderId === "string" ? orderId : null;
}
