import type { IdempotencyStore } from "./store";
import type { Claim, Logger } from "./types";

/** Renewals per lease: a lease survives two missed beats (a stalled event loop, a slow statement). */
const BEATS_PER_LEASE = 3;

/** Renews a live owner's lease so a slow operation keeps its key; says whether a beat found the key another's. */
export function startHeartbeat(
  store: Pick<IdempotencyStore<unknown>, "renew">,
  claim: Claim,
  lease: { leaseMs: number; clock: () => Date },
  logger: Pick<Logger, "warn">,
): { stop(): void; lost(): boolean } {
  let lost = false;
  let beating: Promise<void> | undefined;
  const beat = () => {
    // A beat still in flight (a slow database) is not overtaken by the next one.
    beating ??= store
      .renew(claim, new Date(lease.clock().getTime() + lease.leaseMs))
      .then((renewed) => {
        lost = !renewed;
        if (lost) logger.warn({ keyId: claim.id }, "the key has a new owner; this execution is fenced off");
      })
      .catch((error: unknown) => {
        logger.warn(
          { err: error, keyId: claim.id },
          "could not renew a lease; trying again on the next beat",
        );
      })
      .finally(() => {
        beating = undefined;
      });
  };
  const timer = setInterval(beat, Math.max(1, Math.floor(lease.leaseMs / BEATS_PER_LEASE)));
  // The work keeps the process alive; the heartbeat should not.
  timer.unref();
  return { stop: () => clearInterval(timer), lost: () => lost };
}
