"use client";

import { TryLog } from "~/app/_trpc/try-log";
import type { TabTry } from "~/app/_trpc/try-log";
import { readSessionItem, writeSessionItem } from "./session-storage";

const logs = new Map<string, TryLog>();

/** The order's try log in this tab, in sessionStorage so a reload can tell a try was cut off. */
export function tabTryLog(orderId: string): TryLog {
  const existing = logs.get(orderId);
  if (existing) return existing;
  const storageKey = `payment.tries.${orderId}`;
  const log = new TryLog(
    readSessionItem(storageKey, (value) => (Array.isArray(value) ? (value as TabTry[]) : null)) ?? [],
    (tries) => writeSessionItem(storageKey, tries),
  );
  // The browser aborts in-flight requests on leaving, which would read as network errors; pagehide covers phones and bfcache.
  for (const event of ["beforeunload", "pagehide"]) {
    window.addEventListener(event, () => log.interruptInFlight(Date.now()));
  }
  logs.set(orderId, log);
  return log;
}
