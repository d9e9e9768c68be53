import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Hono } from "hono";
import { z } from "zod";
import { lostReply } from "service-kit/http/lost-reply";
import { validBody } from "../body";
import { secretKeyOnly } from "../auth";
import type { BodyEnv } from "../body";
import { findPaymentMethod } from "../cards";
import type { ChargeableMethod } from "../cards";
import type { ProviderDb, ProviderTx } from "../db/client";
import { ProviderError, cardError, invalidRequest, missing } from "../errors";
import { OrderFaults } from "../faults";
import { idempotent } from "../idempotent";
import type { Commit } from "../idempotent";
import { boolean, expandsOf, integer, metadata, paymentMethodId } from "../params";
import type { ProviderDeps } from "../provider-deps";
import { chargeJson, paymentIntentJson, paymentMethodJson } from "../stripe-objects";
import type { PaymentError } from "../stripe-objects";
import { DECLINE_MESSAGES, declineCodeOf } from "../test-cards";
import { recordEvent } from "../webhooks/event-outbox";

const paymentIntentRequest = z.strictObject({
  amount: integer.pipe(z.number().positive().max(100_000_000)),
  currency: z.literal("usd"),
  payment_method: paymentMethodId,
  // This mock confirms on creation only: a PaymentIntent confirmed later is not one it makes.
  confirm: boolean.pipe(
    z.literal(true, { message: "this provider confirms on creation: send confirm=true" }),
  ),
  payment_method_types: z.array(z.literal("card")).optional(),
  metadata,
  expand: z.array(z.literal("latest_charge")).optional(),
});
type PaymentIntentRequest = z.infer<typeof paymentIntentRequest>;

/** Stripe's search, as far as the shop uses it: one order's PaymentIntents, or the one its key made. */
const ORDER_QUERY =
  /^metadata\['order'\]:'([^'\\]{1,100})'(?: AND metadata\['idempotency_key'\]:'([^'\\]{1,255})')?$/;

/**
 * PaymentIntents, confirmed when created, as Stripe's server-side
 * integrations do (`confirm: true`): the card is charged under the request's
 * Idempotency-Key, and the intent succeeds or, declined, asks for another
 * payment method; either way an event goes to the merchant's webhook.
 */
export function paymentIntentRoutes(deps: ProviderDeps) {
  const routes = new Hono<BodyEnv>();
  routes.use(secretKeyOnly);

  routes.post("/", async (c) => {
    const account = c.get("account");
    const request = validBody(paymentIntentRequest, c.get("body"));
    const orderRef = request.metadata.order;
    // Off, the lab's table is never read: no fault can touch a charge, and no charge pays for the lookup.
    const faults = deps.lab && orderRef ? new OrderFaults(deps.db, account, orderRef) : null;
    const reply = await idempotent(c, deps, "POST /v1/payment_intents", request, (commit, key) =>
      confirm(deps, { account, key, faults }, request, commit),
    );
    // The lab's "webhook first": a succeeded charge's reply (a replay's too) waits, and its event goes out meanwhile.
    const holdReplyMs = (await faults?.read())?.holdReplyMs;
    if (holdReplyMs) await sleep(holdReplyMs);
    return reply.ok && (await faults?.spend("dropReplies")) ? lostReply(await reply.text(), reply) : reply;
  });

  routes.get("/search", async (c) => {
    const [, orderRef, shopKey] = ORDER_QUERY.exec(c.req.query("query") ?? "") ?? [];
    if (orderRef === undefined) {
      throw invalidRequest(
        "parameter_invalid",
        "Only query=metadata['order']:'<order>' [AND metadata['idempotency_key']:'<key>'] is supported.",
        "query",
      );
    }
    const intents = await deps.db.paymentIntent.findMany({
      where: { account: c.get("account"), orderRef },
      orderBy: { createdAt: "asc" },
      take: 100,
    });
    const found = intents.filter(
      (intent) => shopKey === undefined || metadataOf(intent).idempotency_key === shopKey,
    );
    const expand = expandsOf(c.req.url).includes("data.latest_charge");
    return c.json({
      object: "search_result",
      url: "/v1/payment_intents/search",
      has_more: false,
      next_page: null,
      data: await Promise.all(found.map((intent) => intentJson(deps.db, c.get("account"), intent, expand))),
    });
  });

  routes.get("/:id", async (c) => {
    const intent = await deps.db.paymentIntent.findFirst({
      where: { id: c.req.param("id"), account: c.get("account") },
    });
    if (!intent) throw missing("payment_intent", c.req.param("id"));
    const expand = expandsOf(c.req.url).includes("latest_charge");
    return c.json(await intentJson(deps.db, c.get("account"), intent, expand));
  });
  return routes;
}

/**
 * The charge itself: the lab's faults first, then the card, then the writes
 * in the transaction that completes the key. A decline is decided there too,
 * so it is stored and replayed like a charge.
 */
async function confirm(
  deps: ProviderDeps,
  { account, key, faults }: { account: string; key: string | null; faults: OrderFaults | null },
  request: PaymentIntentRequest,
  commit: Commit,
) {
  if (await faults?.spend("unavailable")) {
    throw new ProviderError(
      503,
      "api_error",
      "temporarily_unavailable",
      "The provider is unavailable (test lab).",
      1,
    );
  }
  if (await faults?.spend("timeouts")) await sleep(deps.timeoutHoldMs);
  const lab = await faults?.read();
  if (lab?.delayMs) await sleep(lab.delayMs);
  const method = await findPaymentMethod(deps.db, account, request.payment_method);
  if (!method)
    throw invalidRequest(
      "resource_missing",
      `No such PaymentMethod: '${request.payment_method}'`,
      "payment_method",
    );
  deps.metrics.chargeExecuted();
  const declineCode = lab?.decline ? "generic_decline" : declineCodeOf(method.cardNumber);
  return commit(async (tx) => {
    const ids = {
      intent: `pi_${randomBytes(12).toString("hex")}`,
      charge: `ch_${randomBytes(12).toString("hex")}`,
    };
    const charge = await tx.charge.create({
      data: {
        id: ids.charge,
        account,
        amount: request.amount,
        currency: request.currency,
        paymentMethod: method.id,
        cardLast4: method.card.last4,
        status: declineCode ? "failed" : "succeeded",
        failureCode: declineCode ? "card_declined" : null,
        failureMessage: declineCode ? DECLINE_MESSAGES[declineCode] : null,
        paymentIntent: ids.intent,
        orderRef: request.metadata.order ?? null,
        idempotencyKey: key,
      },
    });
    const error: PaymentError | null = declineCode
      ? {
          type: "card_error",
          code: "card_declined",
          decline_code: declineCode,
          message: DECLINE_MESSAGES[declineCode],
          charge: charge.id,
          payment_method: paymentMethodJson(method),
        }
      : null;
    const intent = await tx.paymentIntent.create({
      data: {
        id: ids.intent,
        account,
        amount: request.amount,
        currency: request.currency,
        paymentMethod: method.id,
        status: error ? "requires_payment_method" : "succeeded",
        latestCharge: charge.id,
        lastPaymentError: error && JSON.stringify(error),
        metadata: JSON.stringify(request.metadata),
        orderRef: request.metadata.order ?? null,
        idempotencyKey: key,
      },
    });
    // Unexpanded, as the event and a decline carry it; the answer expands its charge when asked to.
    const unexpanded = paymentIntentJson(intent);
    if (deps.webhooks) {
      const type = error ? "payment_intent.payment_failed" : "payment_intent.succeeded";
      await recordEvent(tx, {
        account,
        type,
        object: unexpanded,
        idempotencyKey: key,
        deliverTwice: lab?.webhookTwice ?? false,
      });
    }
    if (error) {
      const { decline_code, charge: chargeId, payment_method } = error;
      throw cardError(error.code, error.message, {
        decline_code,
        charge: chargeId,
        payment_method,
        payment_intent: unexpanded,
      });
    }
    return request.expand ? paymentIntentJson(intent, chargeJson(charge, method.card)) : unexpanded;
  });
}

type IntentRow = NonNullable<Awaited<ReturnType<ProviderTx["paymentIntent"]["findFirst"]>>>;

function metadataOf(intent: IntentRow): Record<string, string> {
  return JSON.parse(intent.metadata) as Record<string, string>;
}

/** An intent as Stripe answers it, with its latest charge expanded when asked. */
async function intentJson(db: ProviderDb, account: string, intent: IntentRow, expand: boolean) {
  if (!expand || intent.latestCharge === null) return paymentIntentJson(intent);
  const charge = await db.charge.findUniqueOrThrow({ where: { id: intent.latestCharge } });
  const method: ChargeableMethod | null = await findPaymentMethod(db, account, charge.paymentMethod);
  return paymentIntentJson(intent, method && chargeJson(charge, method.card));
}
