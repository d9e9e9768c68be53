"use client";

import { AttemptLog } from "~/app/_trpc/attempt-log";
import type { Attempt } from "~/app/_trpc/attempt-log";
import { readSessionItem, writeSessionItem } from "./session-storage";

const logs = new Map<string, AttemptLog>();

/** The order's attempt log in this tab, in sessionStorage so a reload can tell an attempt was cut off. */
export function tabAttemptLog(orderId: string): AttemptLog {
  const existing = logs.get(orderId);
  if (existing) return existing;
  const storageKey = `payment.attempts.${orderId}`;
  const log = new AttemptLog(
    readSessionItem(storageKey, (value) => (Array.isArray(value) ? (value as Attempt[]) : null)) ?? [],
    (attempts) => writeSessionItem(storageKey, attempts),
  );
  // The browser aborts in-flight requests on leaving, which would read as network errors; pagehide covers phones and bfcache.
  for (const event of ["beforeunload", "pagehide"]) {
    window.addEventListener(event, () => log.interruptInFlight(Date.now()));
  }
  logs.set(orderId, log);
  return log;
}
