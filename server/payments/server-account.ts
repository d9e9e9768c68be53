import type { z } from "zod";
import type { Json } from "run-once";
import { viewOf } from "../account/request-record";
import type { RequestRecord } from "../account/request-record";
import { viewKeys } from "../keys/key-views";
import type { KeyView } from "../keys/key-views";
import type { Services } from "../services-types";
import { findSessionOrder } from "../orders/order-view";
import type { keyLifecycleSchema, requestViewSchema, serverAccountOutput } from "./server-account-schemas";
import { PROVIDER_CALLS_PATH, providerCallOf } from "../account/provider-calls";
import { WEBHOOK_DELIVERIES_PATH, webhookDeliveryOf } from "../account/webhook-deliveries";
import { NAIVE_CHARGE_PATH, PAYMENT_KEYSPACE } from "./keyspace";

type RequestView = z.infer<typeof requestViewSchema>;
type KeyLifecycle = z.infer<typeof keyLifecycleSchema>;

/** The session's order's runs, provider calls, webhook deliveries and tries, and where each of its keys stands. */
export async function serverAccountOf(
  ctx: Pick<Services, "db" | "account" | "provider"> & { sessionId: string },
  orderId: string,
): Promise<z.infer<typeof serverAccountOutput>> {
  const order = await findSessionOrder(ctx.db, ctx.sessionId, orderId);
  const attemptKeys = await ctx.db.paymentAttempt.findMany({
    where: { orderId: order.id },
    orderBy: { createdAt: "asc" },
    select: { key: true },
  });
  const keys = [...new Set([...attemptKeys.map((attempt) => attempt.key), order.paymentKey])];
  // This instance's pending records first, so that a request in flight here is in the account it reads.
  await ctx.account.flush();
  const [guarded, naive, views, providerCalls, deliveries, tries] = await Promise.all([
    ctx.account.journal.list(ctx.sessionId, PAYMENT_KEYSPACE, keys),
    ctx.account.journal.list(order.id, NAIVE_CHARGE_PATH),
    viewKeys(ctx.db, { caller: ctx.sessionId, path: PAYMENT_KEYSPACE, keys }, { includeExpired: true }),
    ctx.account.journal.list(order.id, PROVIDER_CALLS_PATH),
    ctx.account.journal.list(order.id, WEBHOOK_DELIVERIES_PATH),
    ctx.provider.webhookTriesOf(order.id),
  ]);
  const viewByKey = new Map(views.map((view) => [view.key, view]));
  const records = [...guarded, ...naive].sort((a, b) => a.at.getTime() - b.at.getTime());
  // Taken after the reads: the page sets its clock by it, as if the answer left the server at once.
  const now = new Date();
  return {
    now: now.toISOString(),
    requests: withPayloadColumn(records),
    providerCalls: providerCalls.map(providerCallOf),
    webhookDeliveries: deliveries.map(webhookDeliveryOf),
    webhookTries: tries,
    keys: keys.map((key) => lifecycleOf(key, viewByKey.get(key), now)),
  };
}

/** Each request's grid column: its key's last body or not (a refused mismatch never becomes the key's). */
function withPayloadColumn(records: RequestRecord[]): RequestView[] {
  const heldBody = new Map<string, string>();
  return records.map((record) => {
    const held = heldBody.get(record.scope.key);
    const different = record.decision === "mismatch" || (held !== undefined && held !== record.fingerprint);
    if (record.decision !== "mismatch") heldBody.set(record.scope.key, record.fingerprint);
    return {
      ...viewOf(record),
      key: record.scope.key,
      generation: record.generation,
      keyState: record.keyState,
      payload: different ? "different" : "same",
      fingerprint: record.fingerprint,
      body: isObject(record.body) ? record.body : {},
      replyLost: record.replyLost,
      retryAfterSeconds: record.retryAfterSeconds,
      keyExpiresAt: record.keyExpiresAt?.toISOString() ?? null,
      sentBy: record.sentBy,
      delivery:
        (record.sentBy === "webhook" || record.sentBy === "catch-up") && isObject(record.body)
          ? deliveryOf(record.body)
          : null,
    };
  });
}

function lifecycleOf(key: string, view: KeyView | undefined, now: Date): KeyLifecycle {
  if (!view) return { key, state: "absent", lockedUntil: null, expiresAt: null };
  if (view.state === "in_progress") {
    return { key, state: "in_progress", lockedUntil: view.lockedUntil.toISOString(), expiresAt: null };
  }
  const state = view.expiresAt.getTime() <= now.getTime() ? "expired" : "completed";
  return { key, state, lockedUntil: null, expiresAt: view.expiresAt.toISOString() };
}

/** The delivery a webhook's run names, as recordPaymentEvent keeps it. */
const deliveryOf = (body: { [key: string]: Json }) =>
  typeof body.delivery === "string" ? body.delivery : null;

function isObject(body: Json): body is { [key: string]: Json } {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}
