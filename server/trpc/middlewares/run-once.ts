import { middlewareMarker } from "@trpc/server/unstable-core-do-not-import";
import type { MiddlewareResult } from "@trpc/server/unstable-core-do-not-import";
import { DomainError } from "../../errors";
import type { KeyTransaction, RunOnceResult } from "../../idempotency/coordinator";
import { fingerprint } from "../../idempotency/fingerprint";
import { IDEMPOTENCY_KEY_RULE, idempotencyKeySchema } from "../../idempotency/key";
import { storedError } from "../../idempotency/outcome";
import type { HttpExchange } from "../context";
import { middleware } from "../init";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
export const KEY_EXPIRES_HEADER = "Idempotency-Key-Expires";
export const DECISION_HEADER = "Idempotency-Decision";

export interface RunOnceOptions {
  /** The input field that carries the key (default `idempotencyKey`); it is not part of the fingerprint. */
  keyField?: string;
}

/**
 * Makes a mutation run at most once per (session, procedure, key); see
 * RunOnceCoordinator for the state grid. Place it after `.input()` (it
 * fingerprints the parsed input) and after `.output()` (so the first response
 * and every replay pass through the same output parser). The handler gets
 * `ctx.runOnce.commit(tx => ...)` to write its side effect in the transaction
 * that completes the key.
 */
export function runOnce(options: RunOnceOptions = {}) {
  const keyField = options.keyField ?? "idempotencyKey";
  return middleware(async ({ ctx, path, input, next, signal }) => {
    if (!ctx.sessionId) throw new Error("runOnce needs requireSession before it");
    const { [keyField]: fieldKey, ...payload } = asRecord(input);
    const key = resolveKey(fieldKey, ctx.http, keyField);

    const result = await ctx.idempotency.run(
      { scope: { caller: ctx.sessionId, path, key }, fingerprint: fingerprint(path, payload), signal },
      async (keyTransaction) => {
        const handled = await next({ ctx: { runOnce: keyTransaction } });
        return handled.ok ? { ok: true, data: handled.data } : { ok: false, error: handled.error };
      },
    );

    describeInHeaders(ctx.http, result);
    if (!result.outcome.ok) throw storedError(result.outcome.error);
    return outcomeAsResult(result.outcome.data);
  });
}

/**
 * tRPC brands a middleware's result as "what next() returned", so that a
 * middleware cannot skip the handler by accident. Skipping it is this
 * middleware's purpose: for a duplicate, the stored outcome stands in for the
 * handler's result. At run time tRPC reads only `ok` and `data` of it
 * (callRecursive in procedureBuilder.ts), so the brand is given here, once.
 */
function outcomeAsResult(data: unknown): MiddlewareResult<{ runOnce: KeyTransaction }> {
  return { ok: true, data, marker: middlewareMarker };
}

/**
 * The key comes from the input field or, outside a batch, from the
 * Idempotency-Key header. The header may be an RFC 8941 string ("..."), as the
 * IETF draft writes it, or bare, as most APIs send it.
 */
function resolveKey(fieldKey: unknown, http: HttpExchange | null, keyField: string): string {
  const rawHeader = http?.requestHeaders.get(IDEMPOTENCY_KEY_HEADER) ?? null;
  if (rawHeader !== null && http?.isBatch) {
    throw new DomainError(
      "IDEMPOTENCY_KEY_CONFLICTING_SOURCES",
      `A batch carries one ${IDEMPOTENCY_KEY_HEADER} header for several operations; put ${keyField} in each operation's input instead.`,
    );
  }
  const headerKey = rawHeader === null ? undefined : unquote(rawHeader);
  if (headerKey !== undefined && !idempotencyKeySchema.safeParse(headerKey).success) {
    throw new DomainError(
      "IDEMPOTENCY_KEY_INVALID",
      `Invalid ${IDEMPOTENCY_KEY_HEADER} header: ${IDEMPOTENCY_KEY_RULE}.`,
    );
  }
  const inputKey = typeof fieldKey === "string" ? fieldKey : undefined;
  if (inputKey !== undefined && headerKey !== undefined && inputKey !== headerKey) {
    throw new DomainError(
      "IDEMPOTENCY_KEY_CONFLICTING_SOURCES",
      `The ${IDEMPOTENCY_KEY_HEADER} header and the ${keyField} field differ; send one key, or the same key in both.`,
    );
  }
  const key = inputKey ?? headerKey;
  if (key === undefined) {
    throw new DomainError(
      "IDEMPOTENCY_KEY_MISSING",
      `This operation runs once per idempotency key: send ${keyField} in the input or an ${IDEMPOTENCY_KEY_HEADER} header.`,
    );
  }
  return key;
}

function unquote(header: string): string {
  const trimmed = header.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1)
    : trimmed;
}

function asRecord(input: unknown): Record<string, unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new Error("runOnce needs an object input schema before it");
  }
  return input as Record<string, unknown>;
}

/**
 * Tells the client what the server decided (executed, replayed, coalesced,
 * taken_over, expired), whether it got a stored outcome, and how long it may
 * retry with this key.
 */
function describeInHeaders(http: HttpExchange | null, result: RunOnceResult) {
  if (!http || http.isBatch) return;
  http.responseHeaders.set(DECISION_HEADER, result.decision);
  if (result.decision === "replayed" || result.decision === "coalesced") {
    http.responseHeaders.set(REPLAYED_HEADER, "true");
  }
  http.responseHeaders.set(KEY_EXPIRES_HEADER, result.expiresAt.toUTCString());
}
