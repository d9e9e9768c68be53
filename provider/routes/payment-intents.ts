import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { z } from "zod";
import { validBody } from "../body";
import { secretKeyOnly } from "../auth";
import type { BodyEnv } from "../body";
import { findPaymentMethod } from "../cards";
import { cardError, invalidRequest, missing } from "../errors";
import { idempotent } from "../idempotent";
import type { Commit } from "../idempotent";
import { boolean, expandsOf, integer, metadata, paymentMethodId } from "../params";
import type { ProviderDeps } from "../provider-deps";
import { paymentIntentJson, paymentMethodJson } from "../stripe-objects";
import type { PaymentError } from "../stripe-objects";
import { DECLINE_MESSAGES } from "../test-cards";
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

/** Stripe's search, as far as merchants use it here: one order's PaymentIntents, optionally by one more metadata field. */
const ORDER_QUERY =
  /^metadata\['order'\]:'([^'\\]{1,500})'(?: AND metadata\['([^'\\\]]{1,40})'\]:'([^'\\]{1,500})')?$/;

/** PaymentIntents, confirmed when created (`confirm: true`), charged under the request's key. */
export function paymentIntentRoutes(deps: ProviderDeps) {
  const routes = new Hono<BodyEnv>().use(secretKeyOnly);

  routes.post("/", async (c) => {
    const request = validBody(paymentIntentRequest, c.get("body"));
    const made = { account: c.get("account"), requestId: c.get("requestId") };
    return idempotent(c, deps, "POST /v1/payment_intents", request, (commit, key) =>
      confirm(deps, { ...made, key }, request, commit),
    );
  });

  routes.get("/search", async (c) => {
    const [, orderRef, field, value] = ORDER_QUERY.exec(c.req.query("query") ?? "") ?? [];
    if (orderRef === undefined) {
      throw invalidRequest(
        "parameter_invalid",
        "Only query=metadata['order']:'<order>' [AND metadata['<field>']:'<value>'] is supported.",
        "query",
      );
    }
    const intents = await deps.db.charge.findMany({
      where: { account: c.get("account"), orderRef },
      orderBy: { createdAt: "asc" },
      take: 100,
    });
    const found = intents.filter(
      (intent) =>
        field === undefined || (JSON.parse(intent.metadata) as Record<string, string>)[field] === value,
    );
    const expand = expandsOf(c.req.url).includes("data.latest_charge");
    return c.json({
      object: "search_result",
      url: "/v1/payment_intents/search",
      has_more: false,
      next_page: null,
      data: found.map((intent) => paymentIntentJson(intent, expand)),
    });
  });

  routes.get("/:id", async (c) => {
    const intent = await deps.db.charge.findFirst({
      where: { paymentIntent: c.req.param("id"), account: c.get("account") },
    });
    if (!intent) throw missing("payment_intent", c.req.param("id"));
    return c.json(paymentIntentJson(intent, expandsOf(c.req.url).includes("latest_charge")));
  });
  return routes;
}

/** The charge, its intent and its event in the key's transaction, so a decline is stored and replayed. */
async function confirm(
  deps: ProviderDeps,
  made: { account: string; key: string | null; requestId: string },
  request: z.infer<typeof paymentIntentRequest>,
  commit: Commit,
) {
  const { account } = made;
  const method = await findPaymentMethod(deps.db, account, request.payment_method);
  if (!method)
    throw invalidRequest(
      "resource_missing",
      `No such PaymentMethod: '${request.payment_method}'`,
      "payment_method",
    );
  deps.metrics.chargeExecuted();
  const order = request.metadata.order;
  const declineCode = await deps.cardNetwork({ account, order, cardNumber: method.cardNumber });
  const id = `ch_${randomBytes(12).toString("hex")}`;
  const error: PaymentError | null = declineCode
    ? {
        type: "card_error",
        code: "card_declined",
        decline_code: declineCode,
        message: DECLINE_MESSAGES[declineCode],
        charge: id,
        payment_method: paymentMethodJson(method),
      }
    : null;
  return commit(async (tx) => {
    const { card } = method;
    const intent = await tx.charge.create({
      data: {
        id,
        paymentIntent: `pi_${randomBytes(12).toString("hex")}`,
        account,
        amount: request.amount,
        currency: request.currency,
        paymentMethod: method.id,
        cardBrand: card.brand,
        cardLast4: card.last4,
        cardExpMonth: card.expMonth,
        cardExpYear: card.expYear,
        cardFingerprint: card.fingerprint,
        status: error ? "failed" : "succeeded",
        failureCode: error?.code ?? null,
        failureMessage: error?.message ?? null,
        lastPaymentError: error && JSON.stringify(error),
        metadata: JSON.stringify(request.metadata),
        orderRef: order ?? null,
        idempotencyKey: made.key,
        requestId: made.requestId,
      },
    });
    // Unexpanded, as the event and a decline carry it; the answer expands its charge when asked to.
    const unexpanded = paymentIntentJson(intent, false);
    if (deps.webhooks) {
      await recordEvent(tx, {
        account,
        type: error ? "payment_intent.payment_failed" : "payment_intent.succeeded",
        object: unexpanded,
        orderRef: intent.orderRef,
        request: { id: made.requestId, idempotency_key: made.key },
      });
    }
    if (error) {
      const { decline_code, charge, payment_method } = error;
      throw cardError(error.code, error.message, {
        decline_code,
        charge,
        payment_method,
        payment_intent: unexpanded,
      });
    }
    return request.expand ? paymentIntentJson(intent, true) : unexpanded;
  });
}
