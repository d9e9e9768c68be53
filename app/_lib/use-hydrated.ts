"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

/** False in the server's HTML, true once React runs: controls needing JavaScript wait for it. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
