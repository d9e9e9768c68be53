"use client";

import { useHydrated } from "~/app/_lib/use-hydrated";

/**
 * A moment in the reader's own time zone and format. The server knows
 * neither, so its HTML says UTC, and the browser rewrites it once it runs.
 */
export function LocalTime({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  return (
    <time dateTime={iso}>
      {hydrated ? new Date(iso).toLocaleString() : `${iso.slice(0, 16).replace("T", " ")} UTC`}
    </time>
  );
}
