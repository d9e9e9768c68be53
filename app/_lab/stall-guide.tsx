"use client";

import { useSyncExternalStore } from "react";
import { useNow } from "~/app/_lib/use-now";
import type { Attempt } from "~/app/_trpc/attempt-log";

/** How long the lab ledger holds a stalled transaction open (STALL_MS in server/lab/lab-ledger.ts). */
const STALL_MS = 4_000;

const subscribe = () => () => undefined;

/**
 * What to do with a stall, and, while an attempt stalls, how long is left to
 * do it: kill the server inside the window, and nothing of the charge remains.
 * The command names this page's port, so it kills the instance serving it.
 */
export function StallGuide({
  attempts,
  ledgerDelayMs,
}: {
  attempts: readonly Attempt[];
  ledgerDelayMs: number;
}) {
  const port = useSyncExternalStore(
    subscribe,
    () => window.location.port || (window.location.protocol === "https:" ? "443" : "80"),
    () => "PORT",
  );
  const stalling = attempts.filter((attempt) => attempt.outcome === "in_flight").at(-1);
  const now = useNow(stalling !== undefined, 100);
  // The stall starts once the card network has answered, and holds the transaction STALL_MS.
  const left = stalling ? stalling.startedAt + ledgerDelayMs + STALL_MS - now : null;
  const command = `kill -9 $(lsof -ti tcp:${port} -sTCP:LISTEN)`;

  return (
    <div className="stall-guide" data-testid="stall-guide">
      {left !== null && left > 0 ? (
        <p className="countdown" role="timer" aria-live="off">
          Attempt {stalling?.number} holds its transaction open: <strong>{(left / 1000).toFixed(1)} s</strong>{" "}
          left to kill the server.
        </p>
      ) : null}
      <ol className="small">
        <li>Pay. The charge is written, and its commit waits {STALL_MS / 1000} s.</li>
        <li>
          Within those seconds, kill the server on port {port} from another terminal:{" "}
          <code className="command">{command}</code> (with <code>npm run instances</code>, the other instances
          keep serving).
        </li>
        <li>
          Start it again (or open this order on another instance) and press Finish payment: the stalled charge
          left nothing behind, and the same key charges once, after its lease runs out.
        </li>
      </ol>
    </div>
  );
}
