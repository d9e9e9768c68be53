import type { Services } from "../services-types";

/** The HTTP exchange, when there is one: a server-side caller has none. */
export interface HttpExchange {
  requestHeaders: Headers;
  responseHeaders: Headers;
  /** Response headers describe the whole batch, so per-call headers are only set outside batches. */
  isBatch: boolean;
}

export interface Context extends Services {
  sessionId: string | null;
  http: HttpExchange | null;
}

/** The context without request plumbing, for tests' `createCaller`. */
export function createContextInner(opts: {
  services: Services;
  sessionId: string | null;
  http?: HttpExchange | null;
}): Context {
  return { ...opts.services, sessionId: opts.sessionId, http: opts.http ?? null };
}
