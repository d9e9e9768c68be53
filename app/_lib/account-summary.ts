import type { Order } from "./order";
import type { ServerAttempt } from "./server-account";

/** What the summary needs of a charge in the shop's ledger. */
export type SummarizedCharge = Pick<Order["charges"][number], "idempotencyKey" | "naive">;

/** The status a declined card is answered with. */
const DECLINED = 402;

/** What one request came to, as a clause of the summary. */
function clause(attempt: ServerAttempt, n: number): string {
  switch (attempt.decision) {
    case "executed":
      if (attempt.status === DECLINED) return `attempt ${n} ran and the card was declined (HTTP 402)`;
      // Only a final answer should be stored; the lab's "cache errors forever" stores any failure.
      if (attempt.status >= 400)
        return `attempt ${n} ran, and its failure (HTTP ${attempt.status}) was stored as the key's outcome`;
      return `attempt ${n} executed${attempt.replyLost ? " and its reply was lost" : ""}`;
    case "replayed":
      if (attempt.status >= 400 && attempt.status !== DECLINED)
        return `attempt ${n} replayed the stored failure (HTTP ${attempt.status})`;
      return `attempt ${n} replayed the stored result`;
    case "coalesced":
      return `attempt ${n} waited for the one in flight and shared its result`;
    case "taken_over":
      return `attempt ${n} took over a dead owner's key and ran`;
    case "expired":
      return `attempt ${n} found the key expired and ran again`;
    case "conflict":
      return `attempt ${n} was told 409: still in progress`;
    case "mismatch":
      return `attempt ${n} was refused with 422: another body under the key`;
    case "refused":
      return `attempt ${n} was refused (HTTP ${attempt.status}) before any write`;
    case "released":
      return `attempt ${n} failed before its key was completed (HTTP ${attempt.status}) and released it`;
    case "lease_lost":
      return `attempt ${n} lost its lease, and nothing of it was committed`;
    case "abandoned":
      return `attempt ${n}'s client went away`;
  }
}

/** The most requests told one by one; the rest are counted. */
const TOLD = 6;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/**
 * Charges the lab's naive client made: they bypass run-once, so the server's
 * account has no request for them, and only the ledger tells them.
 */
function naiveClause(charges: readonly SummarizedCharge[]): string {
  const naive = charges.filter((charge) => charge.naive);
  if (naive.length === 0) return "";
  const keys = new Set(naive.map((charge) => charge.idempotencyKey)).size;
  const which = naive.length === charges.length ? "" : ` ${naive.length} of them`;
  return `,${which} made by the naive client without run-once, under ${plural(keys, "key")} it made itself`;
}

/**
 * What happened, after the fact, from the server's own account and the
 * shop's charges: "3 requests reached the server; 1 charge: attempt 1
 * executed and its reply was lost, attempt 2 replayed the stored result."
 */
export function accountSummary(
  attempts: readonly ServerAttempt[],
  charges: readonly SummarizedCharge[],
): string {
  const keys = new Set(attempts.map((attempt) => attempt.key)).size;
  const requests =
    attempts.length === 0
      ? // The naive client's requests reached the server, but not run-once, whose account this is.
        `No request reached ${charges.some((charge) => charge.naive) ? "run-once" : "the server"}`
      : `${plural(attempts.length, "request")} reached the server${keys > 1 ? ` under ${keys} keys` : ""}`;
  const charged = `${plural(charges.length, "charge")}${naiveClause(charges)}`;
  if (attempts.length === 0) return `${requests}; ${charged}.`;
  const told = attempts.slice(0, TOLD).map((attempt, i) => clause(attempt, i + 1));
  const rest = attempts.length - told.length;
  return `${requests}; ${charged}: ${told.join(", ")}${rest > 0 ? `, and ${rest} more` : ""}.`;
}
