import { TRPCClientError, httpBatchLink, httpLink, loggerLink, retryLink, splitLink } from "@trpc/client";
import type { Operation, TRPCLink } from "@trpc/client";
// The core's browser-safe entry: its index also brings the database stores.
import { IDEMPOTENCY_HEADERS } from "run-once/http";
import type { AppRouter } from "~/server/trpc/routers/_app";
import { SERVER_DECISIONS } from "./try-log";
import type { TryAnswer, TryRecorder, ServerDecision } from "./try-log";
import { DEFAULT_RETRY_SETTINGS, decideRetry, parseRetryAfter } from "retry-policy";
import type { TryFailure, RetrySettings } from "retry-policy";

/** What a caller may put in an operation's context (`{ context: ... }` on a call). */
interface OperationContext extends Record<string, unknown> {
  tries?: TryRecorder;
  startedAt?: number;
  /** false: the caller retries by itself (only the lab's naive client does). */
  retries?: boolean;
  /** true: no per-try timeout, the try waits as long as the server (the lab's pitfall mode, whose lessons are the server's waits). */
  untimed?: boolean;
}

/** One retry policy for every answer (retry-policy); queries batched, mutations alone under a per-try timeout. */
export function createLinks({
  url,
  settings = DEFAULT_RETRY_SETTINGS,
  fetch: transport = fetch,
  random = Math.random,
}: {
  url: string;
  settings?: RetrySettings;
  /** The transport; tests pass a fake one. */
  fetch?: typeof fetch;
  random?: () => number;
}): TRPCLink<AppRouter>[] {
  return [
    // retryLink needs `startedAt` for the overall deadline.
    () =>
      ({ op, next }) =>
        next({ ...op, context: { startedAt: Date.now(), ...op.context } }),
    retryLink({
      retry: ({ op, attempts, error }) => rememberDecision(op, attempts, error, settings, random),
      // retryLink asks for the delay without the error: the delay retry() decided is handed over here.
      retryDelayMs: () => {
        const delay = decidedDelayMs;
        decidedDelayMs = 0;
        return delay;
      },
    }),
    loggerLink({ logger: recordTry }),
    splitLink({
      condition: (op) => op.type === "mutation",
      true: splitLink({
        condition: (op) => (op.context as OperationContext).untimed === true,
        true: httpLink({ url, fetch: transport }),
        false: httpLink({ url, fetch: fetchWithTimeout(transport, settings.tryTimeoutMs) }),
      }),
      false: httpBatchLink({ url, fetch: transport }),
    }),
  ];
}

let decidedDelayMs = 0;

function rememberDecision(
  op: Operation,
  tries: number,
  error: TRPCClientError<AppRouter>,
  settings: RetrySettings,
  random: () => number,
): boolean {
  const context = op.context as OperationContext;
  if (context.retries === false) return false;
  const failure = describeFailure(error);
  // A read that got no answer at all is the page's to show and ask again (query-client.ts).
  if (op.type === "query" && failure.kind !== "http") return false;
  const elapsed = Date.now() - (context.startedAt ?? Date.now());
  const decision = decideRetry(failure, tries, elapsed, settings, random);
  decidedDelayMs = decision.delayMs;
  return decision.retry;
}

export function describeFailure(error: TRPCClientError<AppRouter>): TryFailure {
  const response = responseOf(error.meta);
  if (response) {
    // A batch's response may carry several statuses (207): the call's own is in its error.
    const status = (error.data as { httpStatus?: unknown } | undefined)?.httpStatus;
    return {
      kind: "http",
      status: typeof status === "number" ? status : response.status,
      retryAfterSeconds: parseRetryAfter(response.headers.get("Retry-After")),
    };
  }
  // A DOMException is not an Error in every runtime, so the name is read directly.
  const name = (error.cause as { name?: unknown } | undefined)?.name;
  if (name === "TimeoutError") return { kind: "timeout" };
  if (name === "AbortError") return { kind: "cancelled" };
  return { kind: "network" };
}

/** A per-try timeout, left running to cover the body (Node may collect AbortSignal.timeout's timer). */
function fetchWithTimeout(transport: typeof fetch, timeoutMs: number): typeof fetch {
  return (input, init) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException("The try timed out.", "TimeoutError")), timeoutMs);
    const outer = init?.signal;
    if (outer?.aborted) controller.abort(outer.reason);
    outer?.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
    return transport(input, { ...init, signal: controller.signal });
  };
}

type LoggerOptions = Parameters<NonNullable<Parameters<typeof loggerLink>[0]>["logger"] & object>[0];

function recordTry(opts: LoggerOptions) {
  const recorder = (opts.context as OperationContext).tries;
  if (opts.direction === "up") recorder?.started(Date.now());
  else recorder?.ended(Date.now(), tryAnswer(opts.result));
}

const NO_ANSWER = { timeout: "timed_out", network: "network_error", cancelled: "cancelled" } as const;

function tryAnswer(result: unknown): TryAnswer {
  if (result instanceof TRPCClientError) {
    const failure = describeFailure(result as TRPCClientError<AppRouter>);
    if (failure.kind !== "http") return { outcome: NO_ANSWER[failure.kind], status: null, decision: null };
    return {
      outcome:
        failure.status === 409
          ? "conflict"
          : failure.status === 429 || failure.status >= 500
            ? "unavailable"
            : "final_error",
      status: failure.status,
      decision: decisionOf(responseOf(result.meta)),
    };
  }
  const response = responseOf((result as { context?: unknown }).context);
  return { outcome: "succeeded", status: response?.status ?? null, decision: decisionOf(response) };
}

/** The server's word for what it did; none for a procedure without run-once (the lab's naive charge). */
function decisionOf(response: Response | undefined): ServerDecision | null {
  const value = response?.headers.get(IDEMPOTENCY_HEADERS.decision);
  return SERVER_DECISIONS.find((decision) => decision === value) ?? null;
}

function responseOf(meta: unknown): Response | undefined {
  const response = (meta as { response?: unknown } | undefined)?.response;
  return response instanceof Response ? response : undefined;
}
