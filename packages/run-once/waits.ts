import { CallerGoneError, KeyInProgressError } from "./errors";

/** A duplicate waits at most `waitMs` for the execution it joined, then gets KeyInProgressError. */
export function withinWait<T>(promise: Promise<T>, waitMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KeyInProgressError(retryAfterSeconds(waitMs))), waitMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The caller may stop waiting (its client went away); the shared promise runs on regardless. */
export function abandonable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new CallerGoneError());
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CallerGoneError());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  });
}

/** When a retry is worth making: when the owner's lease runs out, between 1 and 5 seconds from now. */
export function retryAfterSeconds(leaseLeftMs: number): number {
  return Math.max(1, Math.min(5, Math.ceil(leaseLeftMs / 1000)));
}
