import type { Order } from "./order";
import type { ServerAttempt } from "./server-account";

/** What the summary needs of a charge in the shop's ledger. */
export type SummarizedCharge = Pick<Order["charges"][number], "idempotencyKey" | "naive">;

/** The status a declined card is answered with. */
const DECLINED = 402;

/** The request runs its key's execution and has not finished it: in flight, or its client gone while it went on. */
export function holdsKey(attempt: ServerAttempt): boolean {
  return attempt.decision === null || (attempt.decision === "abandoned" && attempt.generation !== null);
}

/** The request took its key over from a dead owner: answered so, or claimed so before it failed or its client left. */
export function tookOver(attempt: ServerAttempt): boolean {
  return (
    attempt.decision === "taken_over" ||
    (attempt.decision !== "coalesced" && attempt.keyState === "in_progress" && attempt.generation !== null)
  );
}

/** The later request (its number) that took over the key of request `i` while it held it: its server died. */
export function takeoverOf(attempts: readonly ServerAttempt[], i: number): number | null {
  const attempt = attempts[i]!;
  if (!holdsKey(attempt)) return null;
  const later = attempts.findIndex((a, j) => j > i && a.key === attempt.key && tookOver(a));
  return later === -1 ? null : later + 1;
}

/** How the summary names request `n`, as the figure numbers it (the tab numbers its own attempts apart). */
function attemptName(attempt: ServerAttempt, n: number): string {
  if (attempt.sentBy === "completer") return `#${n} (the background completer)`;
  return attempt.sentBy === "naive client" ? `#${n} (naive, a key of its own)` : `#${n}`;
}

/** What one request came to, as a clause of the summary. */
function clause(attempts: readonly ServerAttempt[], i: number): string {
  const attempt = attempts[i]!;
  const n = attemptName(attempt, i + 1);
  const status = attempt.status ?? 0;
  switch (attempt.decision) {
    case null: {
      const takeover = takeoverOf(attempts, i);
      return takeover === null
        ? `${n} is in flight`
        : `${n} got no answer: its server stopped, and #${takeover} took its key over`;
    }
    case "executed":
      if (status === DECLINED) return `${n} ran and the card was declined (HTTP 402)`;
      if (status >= 400 && attempt.sentBy === "naive client") return `${n} failed (HTTP ${status})`;
      // Only a final answer should be stored; the lab's "cache errors forever" stores any failure.
      if (status >= 400) return `${n} ran, and its failure (HTTP ${status}) was stored as the key's outcome`;
      return `${n} executed${attempt.replyLost ? " and its reply was lost" : ""}`;
    case "replayed":
      if (status >= 400 && status !== DECLINED) return `${n} replayed the stored failure (HTTP ${status})`;
      return `${n} replayed the stored result`;
    case "coalesced":
      return `${n} waited for the one in flight and shared its result`;
    case "taken_over":
      return `${n} took over a dead owner's key and ran`;
    case "expired":
      return `${n} found the key expired and ran again`;
    case "conflict":
      return `${n} was told 409: still in progress`;
    case "mismatch":
      return `${n} was refused with 422: another body under the key`;
    case "refused":
      return `${n} was refused (HTTP ${status}) before any write`;
    case "released":
      return `${n} failed before its key was completed (HTTP ${status}) and released it`;
    case "lease_lost":
      return `${n} lost its lease, and nothing of it was committed`;
    case "abandoned": {
      const takeover = takeoverOf(attempts, i);
      return [
        tookOver(attempt)
          ? `${n} took over a dead owner's key, and its client went away`
          : `${n}'s client went away`,
        takeover === null ? "" : `, then its server stopped, and #${takeover} took its key over`,
      ].join("");
    }
  }
}

/** The most requests told one by one; the rest are counted. */
const TOLD = 6;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
const timesInWords = (count: number) => (count === 1 ? "once" : count === 2 ? "twice" : `${count} times`);

/** The naive client's charges bypass run-once: only the ledger tells of them. */
function naiveClause(charges: readonly SummarizedCharge[]): string {
  const naive = charges.filter((charge) => charge.naive);
  if (naive.length === 0) return "";
  const keys = new Set(naive.map((charge) => charge.idempotencyKey)).size;
  const which = naive.length === charges.length ? "" : ` ${naive.length} of them`;
  return `,${which} made by the naive client without run-once, under ${plural(keys, "key")} it made itself`;
}

/** What happened, from the server's account and the charges: "3 requests reached the server; 1 charge: …". */
export function accountSummary(
  attempts: readonly ServerAttempt[],
  charges: readonly SummarizedCharge[],
): string {
  const keys = new Set(attempts.map((attempt) => attempt.key)).size;
  const sent = attempts.filter((attempt) => attempt.sentBy !== "completer").length;
  const completerRuns = attempts.length - sent;
  const requests =
    (sent === 0
      ? // The naive client's requests reached the server, but not run-once, whose account this is.
        `No request reached ${charges.some((charge) => charge.naive) ? "run-once" : "the server"}`
      : `${plural(sent, "request")} reached the server${keys > 1 ? ` under ${keys} keys` : ""}`) +
    (completerRuns > 0 ? `, and the background completer ran ${timesInWords(completerRuns)}` : "");
  const charged = `${plural(charges.length, "charge")}${naiveClause(charges)}`;
  if (attempts.length === 0) return `${requests}; ${charged}.`;
  const told = attempts.slice(0, TOLD).map((_, i) => clause(attempts, i));
  const rest = attempts.length - told.length;
  return `${requests}; ${charged}: ${told.join(", ")}${rest > 0 ? `, and ${rest} more` : ""}.`;
}
