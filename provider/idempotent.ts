import type { Context } from "hono";
import { IDEMPOTENCY_HEADERS, KEY_RULE, keyFromHeader, resultHeaders } from "run-once/http";
import { fingerprint } from "run-once";
import type { RunOnce } from "run-once";
import type { ProviderDb, ProviderTx } from "./db/client";
import type { BodyEnv } from "./body";
import { invalidRequest, providerFinalErrors } from "./errors";

export type Commit = <T>(work: (tx: ProviderTx) => Promise<T>) => Promise<T>;

/**
 * Runs a POST once per Idempotency-Key, as Stripe does: a replay answers the
 * stored result, the same key with other parameters is refused. Without a
 * key, every request runs, as at Stripe.
 */
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
  const result = await deps.runOnce.run(
    { scope: { caller: c.get("account"), path, key }, fingerprint: fingerprint(path, request) },
    ({ commit }) => work(commit, key),
  );
  for (const [name, value] of Object.entries(resultHeaders(result))) c.header(name, value);
  return c.json(deps.runOnce.unwrap(result) as T);
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
