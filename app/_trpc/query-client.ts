import { QueryClient } from "@tanstack/react-query";

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // Mutations are retried by the tRPC links, with the idempotency rules;
      // TanStack Query's own retry would send a second request for a final answer.
      mutations: { retry: false },
      queries: { staleTime: 5_000, refetchOnWindowFocus: true },
    },
  });
}
