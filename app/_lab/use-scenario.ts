"use client";

import { useSearchParams } from "next/navigation";
import { SCENARIOS } from "./scenarios";
import type { Scenario } from "./scenarios";

/**
 * The chosen scenario, kept in the page's address (`?scenario=crash-mid-charge`):
 * a reload, a second tab or a shared link keeps it. Changed with the History
 * API, which Next.js syncs with useSearchParams, so no server round trip.
 */
export function useScenario(): [Scenario | null, (id: string | null) => void] {
  const params = useSearchParams();
  const scenario = SCENARIOS.find((candidate) => candidate.id === params.get("scenario")) ?? null;
  const choose = (id: string | null) => {
    const url = new URL(window.location.href);
    if (id) url.searchParams.set("scenario", id);
    else url.searchParams.delete("scenario");
    window.history.replaceState(null, "", url);
  };
  return [scenario, choose];
}
