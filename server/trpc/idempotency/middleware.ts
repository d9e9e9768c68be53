import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { middlewareMarker } from "@trpc/server/unstable-core-do-not-import";
import type { MiddlewareResult } from "@trpc/server/unstable-core-do-not-import";
import { IDEMPOTENCY_HEADERS, KEY_RULE, keyFromHeader, resultHeaders } from "run-once/http";
import { fingerprint } from "run-once";
import type { Execution, Json, RunResult } from "run-once";
import { REQUEST_RECORD_HEADER } from "../../account/accounted-run";
import type { AccountedRun } from "../../account/accounted-run";
import type { Tx } from "../../db/client";
import type { HttpExchange } from "../context";
import { middleware } from "../init";
import { ReasonedError } from "../reasoned-error";
import { asTrpcError } from "./errors";
import { IdempotencyError } from "./idempotency-error";

export interface RunOnceOptions {
  /** The input field that carries the key (default `idempotencyKey`); it is not part of the fingerprint. */
  keyField?: string;
  /** The name keys are stored under (default: the path); their readers name the same constant. */
  keyspace?: string;
  /** The part of the input the fingerprint covers (all of it but the key unless given). */
  fingerprinted?: (payload: Record<string, unknown>) => Record<string, unknown>;
}

/** Runs a mutation at most once per (session, keyspace, key); after `.input()` and `.output()`. */
export function runOnce(options: RunOnceOptions = {}) {
  const keyField = options.keyField ?? "idempotencyKey";
  return middleware(async ({ ctx, path, input, next, signal }) => {
    if (!ctx.sessionId) throw new Error("runOnce needs requireSession before it");
    const { [keyField]: fieldKey, ...payload } = asRecord(input);
    const key = resolveKey(fieldKey, ctx.http, keyField);
    const keyspace = options.keyspace ?? path;

    const scope = { caller: ctx.sessionId, path: keyspace, key };
    const requestFingerprint = fingerprint(
      keyspace,
      options.fingerprinted ? options.fingerprinted(payload) : payload,
      await ctx.fingerprintSecret(),
    );
    // The server's account of this request: in flight now, written with the work its handler commits.
    const run = ctx.account.arrived({
      road: "client",
      scope,
      fingerprint: requestFingerprint.slice(0, 12),
      body: payload as Json,
      answers: { ok: 200, error: statusOf },
    });
    if (ctx.http && !ctx.http.isBatch) ctx.http.responseHeaders.set(REQUEST_RECORD_HEADER, run.id);

    let result: RunResult;
    try {
      result = await ctx.runOnce.run(
        { scope, fingerprint: requestFingerprint, signal },
        async (execution) => {
          const handled = await next({ ctx: { execution: run.claimed(execution), run } });
          if (handled.ok) return handled.data;
          throw handled.error;
        },
      );
    } catch (error) {
      const answered = asTrpcError(error);
      const retryAfterSeconds = answered instanceof ReasonedError ? answered.retryAfterSeconds : undefined;
      run.ended({ error, retryAfterSeconds }, statusOf(answered));
      throw answered;
    }

    describeInHeaders(ctx.http, result);
    try {
      const data = ctx.runOnce.unwrap(result);
      run.ended({ result });
      return outcomeAsResult(data);
    } catch (storedError) {
      // A stored final answer (a decline), replayed as it was first thrown.
      run.ended({ result }, statusOf(storedError));
      throw storedError;
    }
  });
}

const statusOf = (error: unknown) => getHTTPStatusCodeFromError(asTrpcError(error));

/** Skipping the handler is this middleware's purpose: tRPC reads only `ok` and `data` of it. */
function outcomeAsResult(data: unknown): MiddlewareResult<{ execution: Execution<Tx>; run: AccountedRun }> {
  return { ok: true, data, marker: middlewareMarker };
}

/** The key from the input field or, outside a batch, the Idempotency-Key header (bare or RFC 8941). */
function resolveKey(fieldKey: unknown, http: HttpExchange | null, keyField: string): string {
  const header = IDEMPOTENCY_HEADERS.key;
  const rawHeader = http?.requestHeaders.get(header) ?? null;
  if (rawHeader !== null && http?.isBatch) {
    throw new IdempotencyError(
      "IDEMPOTENCY_KEY_CONFLICTING_SOURCES",
      `A batch carries one ${header} header for several operations; put ${keyField} in each operation's input instead.`,
    );
  }
  const headerKey = rawHeader === null ? undefined : keyFromHeader(rawHeader);
  if (headerKey === null) {
    throw new IdempotencyError("IDEMPOTENCY_KEY_INVALID", `Invalid ${header} header: ${KEY_RULE.message}.`);
  }
  const inputKey = typeof fieldKey === "string" ? fieldKey : undefined;
  if (inputKey !== undefined && headerKey !== undefined && inputKey !== headerKey) {
    throw new IdempotencyError(
      "IDEMPOTENCY_KEY_CONFLICTING_SOURCES",
      `The ${header} header and the ${keyField} field differ; send one key, or the same key in both.`,
    );
  }
  const key = inputKey ?? headerKey;
  if (key === undefined) {
    throw new IdempotencyError(
      "IDEMPOTENCY_KEY_MISSING",
      `This operation runs once per idempotency key: send ${keyField} in the input or an ${header} header.`,
    );
  }
  return key;
}

function asRecord(input: unknown): Record<string, unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new Error("runOnce needs an object input schema before it");
  }
  return input as Record<string, unknown>;
}

/** Tells the client the decision, whether the outcome was stored, and how long it may retry with the key. */
function describeInHeaders(http: HttpExchange | null, result: RunResult) {
  if (!http || http.isBatch) return;
  for (const [name, value] of Object.entries(resultHeaders(result))) http.responseHeaders.set(name, value);
}
