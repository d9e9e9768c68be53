import type { Context } from "hono";
import { IDEMPOTENCY_HEADERS, KEY_RULE, keyFromHeader, resultHeaders } from "run-once/http";
import { fingerprint } from "run-once";
import type { RunOnce, RunResult } from "run-once";
import type { ProviderDb, ProviderTx } from "./db/client";
import type { BodyEnv } from "./body";
import { ProviderError, invalidRequest, providerFinalErrors } from "./errors";

export type Commit = <T>(work: (tx: ProviderTx) => Promise<T>) => Promise<T>;

/** What a key keeps of a request that executed: its answer, and its Request-Id for the replays' Original-Request. */
interface Executed {
  request: string;
  body: unknown;
}

/** Runs a POST once per Idempotency-Key, as Stripe does; without a key, every request runs. */
export async function idempotent<T extends object>(
  c: Context<BodyEnv>,
  deps: { db: ProviderDb; runOnce: RunOnce<ProviderTx> },
  path: string,
  request: unknown,
  work: (commit: Commit, key: string | null) => Promise<T>,
): Promise<Response> {
  const rawKey = c.req.header(IDEMPOTENCY_HEADERS.key);
  if (rawKey === undefined) return c.json(await work(commitWithoutKey(deps.db), null));
  const key = keyFromHeader(rawKey);
  if (key === null) {
    throw invalidRequest(
      "idempotency_key_invalid",
      `Invalid ${IDEMPOTENCY_HEADERS.key}: ${KEY_RULE.message}.`,
    );
  }
  const requestId = c.get("requestId");
  const result = await deps.runOnce.run(
    { scope: { caller: c.get("account"), path, key }, fingerprint: fingerprint(path, request) },
    ({ commit }) => work(keepingRequest(commit, requestId), key),
  );
  for (const [name, value] of Object.entries(resultHeaders(result))) c.header(name, value);
  // A request that did not execute (a replay, or one that waited for the same key) names the one that did.
  const original = originalRequestOf(result);
  if (original && original !== requestId) c.header("Original-Request", original);
  return c.json((deps.runOnce.unwrap(result) as unknown as Executed).body as T);
}

/** What the key stores is commit()'s: the answer with this request's id, or a final error tagged with it. */
function keepingRequest(commit: Commit, requestId: string): Commit {
  return async (run) => {
    const executed = await commit(async (tx) => {
      const body = await run(tx).catch((error: unknown) => {
        if (error instanceof ProviderError) error.request ??= requestId;
        throw error;
      });
      return { request: requestId, body } satisfies Executed;
    });
    return executed.body;
  };
}

function originalRequestOf({ outcome }: RunResult): string | undefined {
  return ((outcome.ok ? outcome.data : outcome.error) as { request?: string } | null)?.request;
}

/** Without a key, a final error (a decline) still commits what was written before it, as it does under a key. */
function commitWithoutKey(db: ProviderDb): Commit {
  return async (run) => {
    let final: unknown = null;
    const result = await db.$transaction(async (tx) => {
      try {
        return await run(tx);
      } catch (error) {
        if (!providerFinalErrors.isFinal(error)) throw error;
        final = error;
        return null;
      }
    });
    if (final) throw final;
    return result!;
  };
}
