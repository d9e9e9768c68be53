import "server-only";

import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { TRPCQueryOptions } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import type { ReactNode } from "react";
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { env, labEnabled } from "~/server/env";
import { createServices } from "~/server/services";
import type { AppServices } from "~/server/services";
import { sessionIdFromCookies } from "~/server/session";
import { createContextInner } from "~/server/trpc/context";
import { appRouter } from "~/server/trpc/routers/_app";
import { labAppRouter } from "~/server/trpc/served-router";
import { makeQueryClient } from "./query-client";

/**
 * Server components read their data in-process, and hand it to the browser
 * with the page, so that it renders with its data at first paint.
 * @see https://trpc.io/docs/client/tanstack-react-query/server-components
 */

const globalForPages = globalThis as unknown as { pageServices?: AppServices };

/**
 * The pages' own services, for reads only. Next bundles the pages apart from
 * the API route, each with its own copy of the server's modules: had a page
 * made the shared services first (getServices()), the API route would get
 * another copy of DomainError, and answer 500 where it means 503 and lose its
 * Idempotency-Decision headers (tried: a page first, then a lab failure).
 * So the pages open their own database client and never run a mutation.
 */
function pageServices(): AppServices {
  globalForPages.pageServices ??= createServices({
    databaseUrl: resolveDatabaseUrl(env.DATABASE_URL),
    // Pages only read: run-once, and so its settings, is never used here.
    settings: {},
    provider: { url: env.PAYMENT_PROVIDER_URL, apiKey: env.PAYMENT_PROVIDER_KEY },
    lab: labEnabled(),
    sessionSecret: env.SESSION_SECRET,
  });
  return globalForPages.pageServices;
}

/**
 * The session is the cookie proxy.ts sets (on a first visit it puts it into
 * the request too), under the same rule as the API's: the first one that verifies.
 */
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

export const trpc = createTRPCOptionsProxy({
  ctx: createPageContext,
  router: appRouter,
  queryClient: getQueryClient,
});

/** The lab's reads, for the pages that compose the lab in where it is on. */
export const labTrpc = createTRPCOptionsProxy({
  ctx: createPageContext,
  router: labAppRouter,
  queryClient: getQueryClient,
});

/** Hands the reads made on the server to the browser's query cache. */
export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}

/**
 * Reads what the page shows. A failure does not fail the page: the browser
 * reads again, and says if the server is unreachable. Only an answer that
 * the thing does not exist (or that its id cannot name one) is a 404.
 */
export async function prefetch<T extends ReturnType<AnyQueryOptions>>(
  options: T,
  { orNotFound = false } = {},
) {
  const queryClient = getQueryClient();
  await queryClient.prefetchQuery(options);
  const code = (queryClient.getQueryState(options.queryKey)?.error as { code?: unknown } | null)?.code;
  if (orNotFound && (code === "NOT_FOUND" || code === "BAD_REQUEST")) notFound();
}
