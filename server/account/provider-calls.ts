import { z } from "zod";
import { RUN_ONCE_OUTCOMES } from "run-once";
import type { RunOnceOutcome } from "run-once";
import type { ProviderCall, ProviderReply } from "../payment-provider/payment-provider";
import { IN_FLIGHT, recordViewSchema, viewOf } from "./request-record";
import type { RequestRecord } from "./request-record";

/** What a call to the provider is for, by its path: the provider lane's words. */
export const PROVIDER_CALL_PURPOSES = ["charge", "look up"] as const;

/** Where the account keeps the shop's calls to the provider: under their order (kept as long as it is), each under its provider key. */
export const PROVIDER_CALLS_PATH = "payment provider";

/** What a provider call's record keeps of the call beside its reply. */
const sentCall = z.object({
  path: z.string(),
  purpose: z.enum(PROVIDER_CALL_PURPOSES),
  /** Which try of the shop's retry policy, from 1. */
  try: z.number().int(),
  run: z.string(),
  /** The payment's key the call's key was made for; null for a key of the lab's own. */
  paymentKey: z.string().nullable(),
  /** The provider's id for this request (its reply's Request-Id): a charge names the request that made it. */
  requestId: z.string().nullable(),
});

/** A call from the shop to the payment provider, under a key derived from the payment's; its decision is the provider's. */
export const providerCallSchema = recordViewSchema.extend({
  key: z.string(),
  ...sentCall.shape,
  /** No reply reached the shop: lost on the way, or timed out. */
  noReply: z.boolean(),
});

export function callSent(run: RequestRecord, call: ProviderCall): RequestRecord {
  return {
    ...run,
    ...IN_FLIGHT,
    id: crypto.randomUUID(),
    scope: { caller: call.orderId, path: PROVIDER_CALLS_PATH, key: call.key },
    at: new Date(),
    fingerprint: "",
    body: {
      path: call.path,
      purpose: call.path.startsWith("GET") ? "look up" : "charge",
      try: call.try,
      run: run.id,
      paymentKey: call.paymentKey,
      requestId: null,
    } satisfies z.infer<typeof sentCall>,
    durationMs: 0,
    replyLost: false,
  };
}

/** The call once its reply came, with the provider's decision, status and request id; or once none will. */
export function callAnswered(sent: RequestRecord, reply: ProviderReply, durationMs: number): RequestRecord {
  return {
    ...sent,
    body: { ...sentCall.parse(sent.body), requestId: reply.requestId },
    decision: RUN_ONCE_OUTCOMES.includes(reply.decision as RunOnceOutcome)
      ? (reply.decision as RunOnceOutcome)
      : null,
    status: reply.status,
    durationMs,
    replyLost: reply.status === null,
  };
}

/** A provider call as the account recorded it: the call, the provider's decision and status, or no reply. */
export function providerCallOf(record: RequestRecord): z.infer<typeof providerCallSchema> {
  return {
    ...viewOf(record),
    key: record.scope.key,
    ...sentCall.parse(record.body),
    noReply: record.replyLost,
  };
}
