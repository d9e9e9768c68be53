"use client";

import { useHydrated } from "~/app/_lib/use-hydrated";

/** A moment in the reader's time zone: the server's HTML says UTC, and the browser rewrites it. */
export function LocalTime({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  return (
    <time dateTime={iso}>
      {hydrated ? new Date(iso).toLocaleString() : `${iso.slice(0, 16).replace("T", " ")} UTC`}
    </time>
  );
}
