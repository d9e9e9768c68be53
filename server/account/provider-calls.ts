import { z } from "zod";
import { RUN_ONCE_OUTCOMES } from "run-once";
import type { RunOnceOutcome } from "run-once";
import type { ProviderCallObserver } from "../payment-provider/http-payment-provider";
import type { RequestRecord, RequestRecorder } from "./request-recorder";

/** What a call to the provider is for, by its path: the provider lane's words. */
export const PROVIDER_CALL_PURPOSES = ["charge", "look up"] as const;

function purposeOf(path: string): (typeof PROVIDER_CALL_PURPOSES)[number] {
  return path.startsWith("GET") ? "look up" : "charge";
}

/** Where the account keeps the shop's calls to the provider: under their order (kept as long as it is), each under its provider key. */
export const PROVIDER_CALLS_PATH = "payment provider";

/**
 * Writes each keyed call to the provider into the server's account, beside the
 * requests the shop answered: in flight when it leaves, then the provider's
 * decision and status, or a reply that never came (lost, or timed out).
 */
export function recordProviderCalls(account: {
  recorder: RequestRecorder;
  instance: string;
}): ProviderCallObserver {
  return ({ orderId, path, key, attempt }) => {
    const record = account.recorder.arrived({
      scope: { caller: orderId, path: PROVIDER_CALLS_PATH, key },
      instance: account.instance,
      fingerprint: "",
      body: { path, purpose: purposeOf(path), try: attempt },
      sentBy: "shop",
    });
    return ({ status, decision }) => {
      record.end({
        decision: RUN_ONCE_OUTCOMES.includes(decision as RunOnceOutcome)
          ? (decision as RunOnceOutcome)
          : null,
        status,
        keyState: null,
        generation: null,
        retryAfterSeconds: null,
        keyExpiresAt: null,
      });
      if (status === null) account.recorder.replyLost(record.id);
    };
  };
}

/** What a provider call's record keeps of the call beside its reply. */
const sentCall = z.object({
  path: z.string(),
  purpose: z.enum(PROVIDER_CALL_PURPOSES),
  try: z.number().int(),
});

/** A provider call as the account recorded it: the call, the provider's decision and status, or no reply. */
export function providerCallOf(record: RequestRecord) {
  return {
    id: record.id,
    at: record.at.toISOString(),
    instance: record.instance,
    key: record.scope.key,
    ...sentCall.parse(record.body),
    decision: record.decision,
    status: record.status,
    durationMs: Math.round(record.durationMs),
    noReply: record.replyLost,
  };
}
