import { createHash, randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import { IDEMPOTENCY_HEADERS, KEY_RULE, keyFromHeader, resultHeaders } from "run-once/http";
import { fingerprint } from "run-once";
import type { RunOnce, RunResult } from "run-once";
import { lostReply } from "service-kit/http/lost-reply";
import type { ProviderDb, ProviderTx } from "./db/client";
import { ProviderError, asProviderError, cardDeclined, invalidRequest } from "./errors";
import { readFaults, setFaults, spend } from "./faults";
import type { ProviderMetrics } from "./metrics";
import { DECLINING_CARDS } from "./test-cards";

interface ProviderDeps {
  db: ProviderDb;
  runOnce: RunOnce<ProviderTx>;
  metrics: ProviderMetrics;
  /** Whether the test lab may set faults (POST /v1/test/faults/:order). */
  lab: boolean;
  /** How long a "timeout" fault holds a request before running it. */
  timeoutHoldMs: number;
}

/** The charges endpoint's path, also the name its idempotency keys are stored under. */
const CHARGES = "POST /v1/charges";

const chargeRequest = z.strictObject({
  amount: z.number().int().positive().max(100_000_000),
  currency: z.literal("usd"),
  payment_method: z.string().regex(/^pm_[A-Za-z0-9]{1,64}$/),
  metadata: z
    .strictObject({ order: z.string().max(100) })
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

type Env = { Variables: { account: string } };

/**
 * A mock payment provider in the shape of Stripe's API: saved cards, charges
 * under an Idempotency-Key, and a test lab's faults. Its idempotency is the
 * same run-once core as the shop's, on its own database, with no framework
 * but this HTTP router.
 */
export function createProviderApp(deps: ProviderDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.get("/health", (c) => c.json({ ok: true }));
  app.get("/metrics", async () => {
    const { registry } = deps.metrics;
    return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
  });

  app.use("/v1/*", async (c, next) => {
    const account = accountOf(c.req.header("authorization"));
    if (!account) {
      return errorReply(
        c,
        new ProviderError(
          401,
          "invalid_request_error",
          "api_key_invalid",
          "Send Authorization: Bearer sk_test_...",
        ),
      );
    }
    c.set("account", account);
    await next();
  });

  app.post("/v1/payment_methods", zValidator("json", paymentMethodRequest, refuseInvalid), async (c) => {
    const { card } = c.req.valid("json");
    const method = await deps.db.paymentMethod.create({
      data: {
        id: `pm_${randomBytes(12).toString("hex")}`,
        account: c.get("account"),
        cardNumber: card.number,
        cardLast4: card.number.slice(-4),
      },
    });
    return c.json({ id: method.id, object: "payment_method", card: { last4: method.cardLast4 } });
  });

  app.post("/v1/charges", zValidator("json", chargeRequest, refuseInvalid), async (c) => {
    const account = c.get("account");
    const request = c.req.valid("json");
    const rawKey = c.req.header(IDEMPOTENCY_HEADERS.key);
    const key = rawKey === undefined ? undefined : keyFromHeader(rawKey);
    if (key === null) {
      return errorReply(
        c,
        invalidRequest("idempotency_key_invalid", `Invalid ${IDEMPOTENCY_HEADERS.key}: ${KEY_RULE.message}.`),
      );
    }
    try {
      const reply =
        key === undefined
          ? // No key, no idempotency: every request is a new charge (the counter-example's path).
            c.json(
              await createCharge(deps, { account, key: null }, request, (work) => deps.db.$transaction(work)),
            )
          : runOnceReply(
              c,
              deps.runOnce,
              await deps.runOnce.run(
                {
                  scope: { caller: account, path: CHARGES, key },
                  fingerprint: fingerprint(CHARGES, request),
                },
                ({ commit }) => createCharge(deps, { account, key }, request, commit),
              ),
            );
      return await maybeLost(deps.db, request.metadata.order ?? null, reply);
    } catch (error) {
      return errorReply(c, asProviderError(error));
    }
  });

  app.get("/v1/charges/:id", async (c) => {
    const charge = await deps.db.charge.findFirst({
      where: { id: c.req.param("id"), account: c.get("account") },
    });
    if (!charge)
      return errorReply(
        c,
        new ProviderError(404, "invalid_request_error", "resource_missing", "No such charge."),
      );
    return c.json(chargeJson(charge));
  });

  app.get("/v1/charges", async (c) => {
    const orderRef = c.req.query("metadata[order]");
    // The shop's late recovery asks which charge, if any, a key it may no longer replay made.
    const idempotencyKey = c.req.query("idempotency_key");
    const charges = await deps.db.charge.findMany({
      where: {
        account: c.get("account"),
        ...(orderRef === undefined ? {} : { orderRef }),
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      },
      orderBy: { createdAt: "asc" },
      take: 100,
    });
    return c.json({ object: "list", data: charges.map(chargeJson) });
  });

  if (deps.lab) {
    app.get("/v1/test/faults/:order", async (c) => c.json(await readFaults(deps.db, c.req.param("order"))));
    app.post("/v1/test/faults/:order", zValidator("json", faultsRequest, refuseInvalid), async (c) =>
      c.json(await setFaults(deps.db, c.req.param("order"), c.req.valid("json"))),
    );
  }

  app.notFound((c) =>
    errorReply(c, new ProviderError(404, "invalid_request_error", "resource_missing", "No such endpoint.")),
  );
  return app;
}

/**
 * The charge itself: the lab's faults first, then the card, then the write in
 * the transaction that completes the key. A decline is decided there too, so
 * it is stored and replayed like a charge.
 */
async function createCharge(
  deps: ProviderDeps,
  { account, key }: { account: string; key: string | null },
  request: ChargeRequest,
  commit: (
    work: (tx: ProviderTx) => Promise<ReturnType<typeof chargeJson>>,
  ) => Promise<ReturnType<typeof chargeJson>>,
) {
  const orderRef = request.metadata.order ?? null;
  if (await spend(deps.db, orderRef, "unavailable")) {
    throw new ProviderError(
      503,
      "api_error",
      "temporarily_unavailable",
      "The provider is unavailable (test lab).",
      1,
    );
  }
  if (await spend(deps.db, orderRef, "timeouts")) await sleep(deps.timeoutHoldMs);
  const faults = await readFaults(deps.db, orderRef);
  if (faults.delayMs > 0) await sleep(faults.delayMs);
  const method = await deps.db.paymentMethod.findFirst({ where: { id: request.payment_method, account } });
  if (!method) throw invalidRequest("resource_missing", `No such payment_method: ${request.payment_method}.`);
  deps.metrics.chargeExecuted();
  const declineReason = faults.decline
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
        orderRef,
        idempotencyKey: key,
      },
    });
    return chargeJson(charge);
  });
}

/** A run-once result as HTTP: the outcome, what was decided, whether it was replayed, and until when the key is kept. */
function runOnceReply(c: Context<Env>, runOnce: RunOnce<ProviderTx>, result: RunResult): Response {
  for (const [name, value] of Object.entries(resultHeaders(result))) c.header(name, value);
  try {
    return c.json(runOnce.unwrap(result) as object);
  } catch (storedError) {
    return errorReply(c, asProviderError(storedError));
  }
}

function errorReply(c: Context, error: ProviderError): Response {
  if (error.retryAfterSeconds !== undefined) c.header("Retry-After", String(error.retryAfterSeconds));
  return c.json(error.toJSON(), error.status as 400);
}

/** The lab's lost reply: a committed charge's answer breaks on its way back. */
async function maybeLost(db: ProviderDb, orderRef: string | null, reply: Response): Promise<Response> {
  if (!reply.ok || !(await spend(db, orderRef, "dropReplies"))) return reply;
  return lostReply(await reply.text(), reply);
}

/** A body that does not validate is refused before anything is done, so nothing is stored under its key. */
function refuseInvalid(
  result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } },
  c: Context,
) {
  if (result.success) return;
  const problems = (result.error?.issues ?? []).map(
    (issue) => `${issue.path.join(".") || "body"}: ${issue.message}`,
  );
  return errorReply(c, invalidRequest("parameter_invalid", `Invalid request: ${problems.join("; ")}.`));
}

/** Test-mode secret keys (sk_test_...) name an account; the key itself is never stored. */
function accountOf(authorization: string | undefined): string | null {
  const key = /^Bearer (sk_test_[A-Za-z0-9_]{4,100})$/.exec(authorization ?? "")?.[1];
  return key ? `acct_${createHash("sha256").update(key).digest("hex").slice(0, 16)}` : null;
}

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
    payment_method: charge.paymentMethod,
    card_last4: charge.cardLast4,
    metadata: charge.orderRef === null ? {} : { order: charge.orderRef },
    created: Math.floor(charge.createdAt.getTime() / 1000),
  };
}
