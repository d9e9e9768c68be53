"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useNow } from "~/app/_lib/use-now";
import { useLabTRPC } from "~/app/_trpc/provider";
import type { TabTry } from "~/app/_trpc/try-log";

/** How long the lab holds a charge between the provider's answer and the shop's record (STALL_MS in server/lab/lab-provider.ts). */
const STALL_MS = 4_000;

/** How often the guide asks, during a stall, which process holds it. */
const STALL_POLL_MS = 250;

interface StallGuideProps {
  orderId: string;
  tries: readonly TabTry[];
  behindProxy: boolean;
}

/** How to kill the server mid-stall and how long is left (behind the proxy, once the stall begins). */
export function StallGuide({ orderId, tries, behindProxy }: StallGuideProps) {
  const trpc = useLabTRPC();
  const stalling = tries.filter((tabTry) => tabTry.outcome === "in_flight").at(-1);
  const pids = useQuery(
    trpc.lab.stall.queryOptions({ orderId }, { refetchInterval: stalling ? STALL_POLL_MS : false }),
  ).data;
  const now = useNow(stalling !== undefined, 100);
  // The server names the stall's process once the provider has answered: the countdown starts when it is seen.
  const stallPid = stalling ? (pids?.stallPid ?? null) : null;
  const [seen, setSeen] = useState<{ pid: number; at: number } | null>(null);
  if (stallPid !== null && seen?.pid !== stallPid) setSeen({ pid: stallPid, at: now });
  const left = stallPid !== null && seen ? seen.at + STALL_MS - now : null;
  const counting = left !== null && left > 0;
  // The stall's own pid while a try is out: the countdown, from the browser's clock, can end before the stall does.
  const pid = stallPid ?? (behindProxy ? null : pids?.serverPid);

  return (
    <div className="stall-guide" data-testid="stall-guide">
      {counting ? (
        <p className="countdown" role="timer" aria-live="off">
          Try {stalling?.number}: the provider has charged, the shop has not recorded it yet.{" "}
          <strong>{(left / 1000).toFixed(1)} s</strong> left to kill the server.
        </p>
      ) : null}
      <p className="small">
        Kill {behindProxy ? "the instance holding the charge" : "this server"} from another terminal
        {pid ? (
          <>
            : <code className="command">kill -9 {pid}</code>
          </>
        ) : (
          <>: its command appears here when the stall begins (the demo&apos;s terminal prints it too).</>
        )}{" "}
        <code>npm start</code> starts it again
        {behindProxy ? "; the other instances and the provider keep serving." : "."}
      </p>
    </div>
  );
}
