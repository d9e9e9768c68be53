"use client";

import { useSearchParams } from "next/navigation";
import { SCENARIOS } from "./scenarios";
import type { Scenario } from "./scenarios";

/** The chosen scenario, in the address (`?scenario=…`) so reloads and links keep it; no round trip. */
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
