import { createHash, randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import { IDEMPOTENCY_HEADERS, KEY_RULE, keyFromHeader, resultHeaders } from "run-once/http";
import { fingerprint } from "run-once";
import type { RunOnce } from "run-once";
import { lostReply } from "service-kit/http/lost-reply";
import type { ProviderDb, ProviderTx } from "./db/client";
import { limitBody, readBody, validBody } from "./body";
import type { BodyEnv } from "./body";
import { ProviderError, asProviderError, cardDeclined, invalidRequest } from "./errors";
import { OrderFaults } from "./faults";
import type { ProviderMetrics } from "./metrics";
import { DECLINING_CARDS } from "./test-cards";

interface ProviderDeps {
  db: ProviderDb;
  runOnce: RunOnce<ProviderTx>;
  metrics: ProviderMetrics;
  /** Whether the test lab may set faults (POST /v1/test/faults/:order); off, the faults are never read. */
  lab: boolean;
  /** How long a "timeout" fault holds a request before running it. */
  timeoutHoldMs: number;
}

/** An integer as JSON sends it, or as a form field (digits only: `amount[]=1` is not an amount). */
const integer = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,12}$/)
      .transform(Number),
  ])
  .pipe(z.number().int());

const chargeRequest = z.strictObject({
  amount: integer.pipe(z.number().positive().max(100_000_000)),
  currency: z.literal("usd"),
  /** A saved card's id, as Stripe's Charges API takes it. */
  source: z.string().regex(/^pm_[A-Za-z0-9]{1,64}$/),
  metadata: z
    // idempotency_key: the shop's key for the charge, so that a late lookup can find the charge it made.
    .strictObject({ order: z.string().max(100), idempotency_key: z.string().max(255) })
    .partial()
    .default({}),
});
type ChargeRequest = z.infer<typeof chargeRequest>;

const paymentMethodRequest = z.strictObject({
  type: z.literal("card"),
  card: z.strictObject({ number: z.string().regex(/^\d{12,19}$/) }),
});

const faultsRequest = z.strictObject({
  dropReplies: z.number().int().min(0).max(5),
  unavailable: z.number().int().min(0).max(5),
  timeouts: z.number().int().min(0).max(5),
  delayMs: z.number().int().min(0).max(10_000),
  decline: z.boolean(),
});

/** Stripe's charge search, as far as the shop uses it: one order's charges, or the one its key made. */
const ORDER_QUERY =
  /^metadata\['order'\]:'([^'\\]{1,100})'(?: AND metadata\['idempotency_key'\]:'([^'\\]{1,255})')?$/;

/**
 * A mock payment provider in the shape of Stripe's API, as Stripe's own
 * clients speak it: saved cards, charges under an Idempotency-Key, charge
 * search, and a test lab's faults. Its idempotency is the same run-once core
 * as the shop's, on its own database, with no framework but this HTTP router.
 */
export function createProviderApp(deps: ProviderDeps): Hono<BodyEnv> {
  const app = new Hono<BodyEnv>();

  app.get("/health", (c) => c.json({ ok: true }));
  app.get("/metrics", async () => {
    const { registry } = deps.metrics;
    return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
  });

  app.use("/v1/*", async (c, next) => {
    const account = accountOf(c.req.header("authorization"));
    if (!account) {
      throw new ProviderError(
        401,
        "invalid_request_error",
        "api_key_invalid",
        "Send Authorization: Bearer sk_test_...",
      );
    }
    c.set("account", account);
    await next();
  });
  app.post("/v1/*", limitBody, readBody);

  app.post("/v1/payment_methods", async (c) => {
    const { card } = validBody(paymentMethodRequest, c.get("body"));
    return idempotent(c, deps, "POST /v1/payment_methods", { card }, async (commit) =>
      commit(async (tx) => {
        const method = await tx.paymentMethod.create({
          data: {
            id: `pm_${randomBytes(12).toString("hex")}`,
            account: c.get("account"),
            cardNumber: card.number,
            cardLast4: card.number.slice(-4),
          },
        });
        return { id: method.id, object: "payment_method", type: "card", card: { last4: method.cardLast4 } };
      }),
    );
  });

  app.post("/v1/charges", async (c) => {
    const account = c.get("account");
    const request = validBody(chargeRequest, c.get("body"));
    const orderRef = request.metadata.order;
    // Off, the lab's table is never read: no fault can touch a charge, and no charge pays for the lookup.
    const faults = deps.lab && orderRef ? new OrderFaults(deps.db, account, orderRef) : null;
    const reply = await idempotent(c, deps, "POST /v1/charges", request, (commit, key) =>
      createCharge(deps, { account, key, faults }, request, commit),
    );
    return reply.ok && (await faults?.spend("dropReplies")) ? lostReply(await reply.text(), reply) : reply;
  });

  app.get("/v1/charges/search", async (c) => {
    const [, orderRef, idempotencyKey] = ORDER_QUERY.exec(c.req.query("query") ?? "") ?? [];
    if (orderRef === undefined) {
      throw invalidRequest("parameter_invalid", "Only query=metadata['order']:'<order>' is supported.");
    }
    const charges = await deps.db.charge.findMany({
      // The mock matches the key it stored the charge under: the shop sends the same one as metadata.
      where: {
        account: c.get("account"),
        orderRef,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      },
      orderBy: { createdAt: "asc" },
      take: 100,
    });
    return c.json({
      object: "search_result",
      url: "/v1/charges/search",
      has_more: false,
      next_page: null,
      data: charges.map(chargeJson),
    });
  });

  app.get("/v1/charges/:id", async (c) => {
    const charge = await deps.db.charge.findFirst({
      where: { id: c.req.param("id"), account: c.get("account") },
    });
    if (!charge) throw new ProviderError(404, "invalid_request_error", "resource_missing", "No such charge.");
    return c.json(chargeJson(charge));
  });

  if (deps.lab) {
    const faultsOf = (c: Context<BodyEnv>) =>
      new OrderFaults(deps.db, c.get("account"), c.req.param("order")!);
    app.get("/v1/test/faults/:order", async (c) => c.json(await faultsOf(c).read()));
    app.post("/v1/test/faults/:order", async (c) =>
      c.json(await faultsOf(c).set(validBody(faultsRequest, c.get("body")))),
    );
  }

  app.notFound(() => {
    throw new ProviderError(404, "invalid_request_error", "resource_missing", "No such endpoint.");
  });
  // Every failure in Stripe's shape; anything unexpected (a database that is down) a retryable 503, never a 500.
  app.onError((error, c) => errorReply(c, asProviderError(error)));
  return app;
}

type Commit = <T>(work: (tx: ProviderTx) => Promise<T>) => Promise<T>;

/**
 * Runs a POST once per Idempotency-Key, as Stripe does: a replay answers the
 * stored result, the same key with other parameters is refused. Without a
 * key, every request runs (the counter-example's path).
 */
async function idempotent<T extends object>(
  c: Context<BodyEnv>,
  deps: ProviderDeps,
  path: string,
  request: unknown,
  work: (commit: Commit, key: string | null) => Promise<T>,
): Promise<Response> {
  const rawKey = c.req.header(IDEMPOTENCY_HEADERS.key);
  if (rawKey === undefined) return c.json(await work((run) => deps.db.$transaction(run), null));
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

/**
 * The charge itself: the lab's faults first, then the card, then the write in
 * the transaction that completes the key. A decline is decided there too, so
 * it is stored and replayed like a charge.
 */
async function createCharge(
  deps: ProviderDeps,
  { account, key, faults }: { account: string; key: string | null; faults: OrderFaults | null },
  request: ChargeRequest,
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
  const method = await deps.db.paymentMethod.findFirst({ where: { id: request.source, account } });
  if (!method) throw invalidRequest("resource_missing", `No such source: ${request.source}.`);
  deps.metrics.chargeExecuted();
  const declineReason = lab?.decline
    ? "The card was declined (test lab)."
    : DECLINING_CARDS[method.cardNumber];
  return commit(async (tx) => {
    if (declineReason) throw cardDeclined(declineReason);
    const charge = await tx.charge.create({
      data: {
        id: `ch_${randomBytes(12).toString("hex")}`,
        account,
        amount: request.amount,
        currency: request.currency,
        paymentMethod: method.id,
        cardLast4: method.cardLast4,
        orderRef: request.metadata.order ?? null,
        idempotencyKey: key,
      },
    });
    return chargeJson(charge);
  });
}

function errorReply(c: Context, error: ProviderError): Response {
  if (error.retryAfterSeconds !== undefined) c.header("Retry-After", String(error.retryAfterSeconds));
  return c.json(error.toJSON(), error.status as 400);
}

/** Test-mode secret keys (sk_test_...) name an account; the key itself is never stored. */
function accountOf(authorization: string | undefined): string | null {
  const key = /^Bearer (sk_test_[A-Za-z0-9_]{4,100})$/.exec(authorization ?? "")?.[1];
  return key ? `acct_${createHash("sha256").update(key).digest("hex").slice(0, 16)}` : null;
}

/** A charge as Stripe's Charge object has it, as far as the shop reads it. */
function chargeJson(charge: {
  id: string;
  amount: number;
  currency: string;
  paymentMethod: string;
  cardLast4: string;
  orderRef: string | null;
  createdAt: Date;
}) {
  return {
    id: charge.id,
    object: "charge",
    amount: charge.amount,
    currency: charge.currency,
    status: "succeeded",
    paid: true,
    livemode: false,
    payment_method: charge.paymentMethod,
    payment_method_details: { type: "card", card: { last4: charge.cardLast4 } },
    metadata: charge.orderRef === null ? {} : { order: charge.orderRef },
    created: Math.floor(charge.createdAt.getTime() / 1000),
  };
}
