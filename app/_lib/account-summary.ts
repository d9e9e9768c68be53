import type { ServerAttempt } from "./server-account";

/** What one request came to, as a clause of the summary. */
function clause(attempt: ServerAttempt, n: number): string {
  switch (attempt.decision) {
    case "executed":
      return `attempt ${n} executed${attempt.replyLost ? " and its reply was lost" : ""}`;
    case "replayed":
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
      return `attempt ${n} failed before commit (HTTP ${attempt.status}) and released the key`;
    case "lease_lost":
      return `attempt ${n} lost its lease, and nothing of it was committed`;
    case "abandoned":
      return `attempt ${n}'s client went away`;
  }
}

/** The most requests told one by one; the rest are counted. */
const TOLD = 6;

/**
 * What happened, after the fact, from the server's own account and the
 * shop's charges: "3 requests reached the server; 1 charge: attempt 1
 * executed and its reply was lost, attempt 2 replayed the stored result."
 */
export function accountSummary(attempts: readonly ServerAttempt[], charges: number): string {
  const requests = `${attempts.length} request${attempts.length === 1 ? "" : "s"} reached the server`;
  const charged = `${charges} charge${charges === 1 ? "" : "s"}`;
  if (attempts.length === 0) return `No request reached the server; ${charged}.`;
  const told = attempts.slice(0, TOLD).map((attempt, i) => clause(attempt, i + 1));
  const rest = attempts.length - told.length;
  return `${requests}; ${charged}: ${told.join(", ")}${rest > 0 ? `, and ${rest} more` : ""}.`;
}
