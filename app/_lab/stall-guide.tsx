"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useNow } from "~/app/_lib/use-now";
import { useLabTRPC } from "~/app/_trpc/provider";
import type { Attempt } from "~/app/_trpc/attempt-log";

/** How long the lab holds a charge between the provider's answer and the shop's record (STALL_MS in server/lab/lab-provider.ts). */
const STALL_MS = 4_000;

/** How often the guide asks, during a stall, which process holds it. */
const STALL_POLL_MS = 250;

/** How to kill the server mid-stall and how long is left (behind the proxy, once the stall begins). */
export function StallGuide({
  orderId,
  attempts,
  behindProxy,
}: {
  orderId: string;
  attempts: readonly Attempt[];
  behindProxy: boolean;
}) {
  const trpc = useLabTRPC();
  const stalling = attempts.filter((attempt) => attempt.outcome === "in_flight").at(-1);
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
  // The stall's own pid while an attempt is out: the countdown, from the browser's clock, can end before the stall does.
  const pid = stallPid ?? (behindProxy ? null : pids?.serverPid);

  return (
    <div className="stall-guide" data-testid="stall-guide">
      {counting ? (
        <p className="countdown" role="timer" aria-live="off">
          Attempt {stalling?.number}: the provider has charged, the shop has not recorded it yet.{" "}
          <strong>{(left / 1000).toFixed(1)} s</strong> left to kill the server.
        </p>
      ) : null}
      <ol className="small">
        <li>
          Pay. The provider charges the card, and the shop waits {STALL_MS / 1000} s before it records the
          charge.
        </li>
        <li>
          Within those seconds, kill {behindProxy ? "the instance holding the charge" : "this server"} from
          another terminal
          {pid ? (
            <>
              : <code className="command">kill -9 {pid}</code>
            </>
          ) : (
            <>
              : its command appears here when the stall begins (the demo&apos;s terminal prints it too). The
              demo&apos;s proxy sends each request to the next instance, so only that instance can name
              itself.
            </>
          )}{" "}
          <code>npm start</code> starts it again at once
          {behindProxy ? "; meanwhile the other instances, the proxy and the provider keep serving." : "."}
        </li>
        <li>
          Once the server answers again, the page&apos;s own retry finishes the payment (press Finish payment
          if its retries ran out): it takes the dead owner&apos;s key over, at once on PostgreSQL (the
          database saw the owner&apos;s session close) and after the key&apos;s lease on SQLite, asks the
          provider again with the same key, gets its one charge back, and records it. Left alone, the
          background completer does the same.
        </li>
      </ol>
    </div>
  );
}
