"use client";

import { onlineManager, useQueryClient } from "@tanstack/react-query";
import type { QueryState } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { UNREACHABLE_RETRY_MS } from "~/app/_trpc/query-client";
import { isServerUnreachable } from "~/app/_trpc/server-unreachable";

const ALL_ANSWERED = -1;

/** Says the server is unreachable; its live region stays mounted so screen readers announce it. */
export function ConnectionNotice() {
  const queryCache = useQueryClient().getQueryCache();
  const online = useSyncExternalStore(
    (listener) => onlineManager.subscribe(listener),
    () => onlineManager.isOnline(),
    () => true,
  );
  const lastAnswer = useSyncExternalStore(
    useCallback((listener: () => void) => queryCache.subscribe(listener), [queryCache]),
    () => oldestUnansweredData(queryCache.getAll().map((query) => query.state)),
    () => ALL_ANSWERED,
  );

  return (
    <div role="status" className="connection-status">
      {!online ? (
        <p className="connection-notice" data-testid="connection-notice">
          <strong>You are offline.</strong> The page shows what the server last said, and reads it again when
          the connection returns.
        </p>
      ) : lastAnswer !== ALL_ANSWERED ? (
        <p className="connection-notice" data-testid="connection-notice">
          <strong>Can&apos;t reach the server.</strong>{" "}
          {lastAnswer > 0 ? `Showing what it said at ${new Date(lastAnswer).toLocaleTimeString()}. ` : ""}
          Trying again every {UNREACHABLE_RETRY_MS / 1000} s.
        </p>
      ) : null}
    </div>
  );
}

/** When the oldest data among the unanswered reads was fetched (0: they had none), or ALL_ANSWERED. */
function oldestUnansweredData(states: QueryState[]): number {
  const unanswered = states.filter((state) => isServerUnreachable(state.fetchFailureReason));
  if (unanswered.length === 0) return ALL_ANSWERED;
  return Math.min(...unanswered.map((state) => state.dataUpdatedAt));
}
