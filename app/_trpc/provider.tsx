"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState } from "react";
import type { ReactNode } from "react";
import type { AppRouter } from "~/server/trpc/routers/_app";
import type { LabAppRouter } from "~/server/compose-lab";
import { createLinks } from "./links";
import { makeQueryClient } from "./query-client";

/** @see https://trpc.io/docs/client/tanstack-react-query/setup */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** The lab's hooks, typed with the demo's router so the production components know nothing of the lab. */
export const {
  TRPCProvider: LabTRPCProvider,
  useTRPC: useLabTRPC,
  useTRPCClient: useLabTRPCClient,
} = createTRPCContext<LabAppRouter>();

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<LabAppRouter>({ links: createLinks({ url: "/api/trpc" }) }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <LabTRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
        </LabTRPCProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
