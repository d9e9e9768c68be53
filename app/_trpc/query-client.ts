import { QueryClient } from "@tanstack/react-query";
import { isServerUnreachable, isUnanswered } from "./server-unreachable";

/** While the server does not answer, a read that gave up is tried again this often, until it answers. */
export const UNREACHABLE_RETRY_MS = 3_000;

/** Reads keep their data through a failure: the links retry an answer that says "not now" (a 503), this client a call that got none. */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // The tRPC links retry mutations with the key; TanStack Query's own retry would resend a final answer.
      mutations: { retry: false },
      queries: {
        // Above zero, so that data prefetched on the server is not fetched again at once.
        staleTime: 5_000,
        refetchOnWindowFocus: true,
        // A 503's retries are the links' (links.ts), by the payments' policy: here only a call with no answer at all.
        retry: (failureCount, error) => isUnanswered(error) && failureCount < 2,
        refetchInterval: untilReachable,
      },
    },
  });
}

/** A refetchInterval that keeps asking while the server is unreachable, so the page recovers by itself. */
export function untilReachable(query: { state: { error: unknown } }): number | false {
  return isServerUnreachable(query.state.error) ? UNREACHABLE_RETRY_MS : false;
}
