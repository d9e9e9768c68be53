"use client";

import { AttemptLog } from "~/app/_trpc/attempt-log";
import type { Attempt } from "~/app/_trpc/attempt-log";
import { readSessionItem, writeSessionItem } from "./session-storage";

const logs = new Map<string, AttemptLog>();

function parseAttempts(value: unknown): Attempt[] | null {
  return Array.isArray(value) ? (value as Attempt[]) : null;
}

/** The order's attempt log in this tab, in sessionStorage so a reload can tell an attempt was cut off. */
export function tabAttemptLog(orderId: string): AttemptLog {
  const existing = logs.get(orderId);
  if (existing) return existing;
  const storageKey = `payment.attempts.${orderId}`;
  const log = new AttemptLog(readSessionItem(storageKey, parseAttempts) ?? [], (attempts) =>
    writeSessionItem(storageKey, attempts),
  );
  // A reload or a closed tab cuts off what is in flight: say so, and when. On beforeunload,
  // because the browser then aborts the requests, which would otherwise read as network
  // errors; on pagehide too, for the pages that leave without beforeunload (phones, bfcache).
  for (const event of ["beforeunload", "pagehide"]) {
    window.addEventListener(event, () => log.interruptInFlight(Date.now()));
  }
  logs.set(orderId, log);
  return log;
}
