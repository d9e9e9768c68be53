import "server-only";

import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { TRPCQueryOptions } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import type { ReactNode } from "react";
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { labAppRouter, labServices } from "~/server/compose-lab";
import { env, labEnabled } from "~/server/env";
import { createServices } from "~/server/services";
import type { AppServices } from "~/server/services";
import { sessionIdFromCookies } from "~/server/session";
import { createContextInner } from "~/server/trpc/context";
import { appRouter } from "~/server/trpc/routers/_app";
import { makeQueryClient } from "./query-client";

// Server components read in-process and send the data with the page, for a first paint with data.

const globalForPages = globalThis as unknown as { pageServices?: AppServices };

/** The pages' own read-only services: made by a page, the shared ones would break the API's error classes. */
function pageServices(): AppServices {
  globalForPages.pageServices ??= createServices({
    databaseUrl: resolveDatabaseUrl(env.DATABASE_URL),
    // Pages only read: run-once, and so its settings, is never used here.
    settings: {},
    provider: { url: env.PAYMENT_PROVIDER_URL, apiKey: env.PAYMENT_PROVIDER_KEY },
    lab: labEnabled() ? labServices : undefined,
    sessionSecret: env.SESSION_SECRET,
  });
  return globalForPages.pageServices;
}

/** The session proxy.ts set, under the API's rule: the first cookie that verifies. */
const createPageContext = cache(async () => {
  const services = pageServices();
  return createContextInner({
    services,
    sessionId: sessionIdFromCookies((await headers()).get("cookie"), await services.sessionSecret()),
  });
});

// Any procedure's query options, as tRPC's guide types its prefetch helper.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQueryOptions = TRPCQueryOptions<any>;

/** One query client per request: what a page prefetches goes to the browser with that page. */
const getQueryClient = cache(makeQueryClient);

const pageReads = { ctx: createPageContext, queryClient: getQueryClient };

export const trpc = createTRPCOptionsProxy({ ...pageReads, router: appRouter });

/** The lab's reads, for the pages that compose the lab in where it is on. */
export const labTrpc = createTRPCOptionsProxy({ ...pageReads, router: labAppRouter });

/** Hands the reads made on the server to the browser's query cache. */
export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}

/** Prefetches; a failure does not fail the page (the browser reads again), only "not found" is a 404. */
export async function prefetch<T extends ReturnType<AnyQueryOptions>>(
  options: T,
  { orNotFound = false } = {},
) {
  const queryClient = getQueryClient();
  await queryClient.prefetchQuery(options);
  const code = (queryClient.getQueryState(options.queryKey)?.error as { code?: unknown } | null)?.code;
  if (orNotFound && (code === "NOT_FOUND" || code === "BAD_REQUEST")) notFound();
}
