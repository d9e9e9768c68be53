import type { Account } from "../account/accounted-run";
import type { Db } from "../db/client";
import { lostReply } from "service-kit/http/lost-reply";
import { logger } from "service-kit/logger";
import { REQUEST_RECORD_HEADER } from "../account/accounted-run";
import { chargeOutput } from "../payments/schemas";
import { spend } from "./switches";

/** Loses a committed charge's reply when its order's lab says so, the order read from the validated reply. */
export function losingReplies(
  db: Db,
  account: Pick<Account, "replyLost">,
  handle: (request: Request) => Promise<Response>,
) {
  return async (request: Request): Promise<Response> => {
    const reply = await handle(request);
    if (request.method !== "POST" || !reply.ok) return reply;
    const text = await reply.text();
    const orderId = chargedOrderOf(text);
    if (!orderId || !(await spentOrLogged(db, orderId))) return new Response(text, reply);
    const recordId = reply.headers.get(REQUEST_RECORD_HEADER);
    if (recordId) account.replyLost(recordId);
    return lostReply(text, reply);
  };
}

/** The lab's bookkeeping after a committed reply: if it fails (a connection cut), the reply goes out as it was. */
async function spentOrLogged(db: Db, orderId: string): Promise<boolean> {
  try {
    return await spend(db, orderId, "dropReplies");
  } catch (error) {
    logger.warn(
      { err: error, orderId },
      "lab: a committed reply's switch could not be spent; the reply goes out",
    );
    return false;
  }
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
