"use client";

import { useSyncExternalStore } from "react";
import { useNow } from "~/app/_lib/use-now";
import type { Attempt } from "~/app/_trpc/attempt-log";

/** How long the lab holds a charge between the provider's answer and the shop's record (STALL_MS in server/lab/lab-provider.ts). */
const STALL_MS = 4_000;

const subscribe = () => () => undefined;

/**
 * What to do with a stall between the hops, and, while an attempt stalls, how
 * long is left to do it: kill the server after the provider charged and
 * before the shop recorded it. The command names this page's port, so it
 * kills the instance serving it; behind the demo's round-robin proxy, whose
 * port that is, the instance holding the stall prints its own command.
 */
export function StallGuide({
  attempts,
  providerDelayMs,
  behindProxy,
}: {
  attempts: readonly Attempt[];
  providerDelayMs: number;
  behindProxy: boolean;
}) {
  const port = useSyncExternalStore(
    subscribe,
    () => window.location.port || (window.location.protocol === "https:" ? "443" : "80"),
    () => "PORT",
  );
  const stalling = attempts.filter((attempt) => attempt.outcome === "in_flight").at(-1);
  const now = useNow(stalling !== undefined, 100);
  // The stall starts once the provider has answered, and lasts STALL_MS.
  const left = stalling ? stalling.startedAt + providerDelayMs + STALL_MS - now : null;
  const command = `kill -9 $(lsof -ti tcp:${port} -sTCP:LISTEN)`;

  return (
    <div className="stall-guide" data-testid="stall-guide">
      {left !== null && left > 0 ? (
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
        {behindProxy ? (
          <li>
            Within those seconds, kill the instance holding the charge. Port {port} is the demo&apos;s
            round-robin proxy, which sends each request to the next instance, so the instance says it itself:
            the terminal running the demo prints{" "}
            <code className="command">
              lab: stalling {STALL_MS / 1000} s between the hops; to crash this instance now: kill -9 PID
            </code>
            . Run that command from another terminal; the other instance keeps serving.
          </li>
        ) : (
          <li>
            Within those seconds, kill the server on port {port} from another terminal:{" "}
            <code className="command">{command}</code> (with <code>npm run instances</code>, the other
            instances keep serving).
          </li>
        )}
        <li>
          Press Finish payment on an instance that is up (
          {behindProxy
            ? "the proxy skips the dead one"
            : "start it again, or open this order on another instance"}
          ): the retry takes the dead owner&apos;s key over, at once on PostgreSQL (the database saw the
          owner&apos;s session close) and after the key&apos;s lease on SQLite, asks the provider again with
          the same key, gets its one charge back, and records it. Left alone, the background completer does
          the same.
        </li>
      </ol>
    </div>
  );
}
